package codex

import (
	"encoding/json"
	"strings"

	"lab/internal/conv"
	"lab/internal/hookspool"
)

// HookEvent is one spooled hook payload: the fields both CLIs send
// (hookspool.Event; exec_command is named "Bash" there, with tool_input
// {command, description}, and apply_patch carries its patch as
// tool_input.command) and Codex's own. Fields not carried by the event
// are empty.
type HookEvent struct {
	hookspool.Event

	TurnID string `json:"turn_id"`
}

// command is tool_input.command, trimmed: what a PermissionRequest and its
// PreToolUse share (the patch's trailing newline differs between them).
func (e *HookEvent) command() string {
	var in struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal(e.ToolInput, &in)
	return strings.TrimSpace(in.Command)
}

// SpoolState is what a run's spool says right now. Its Pending are the
// request_user_input calls; an Escape or an interrupt fires no hook, so
// Retire (the rollout showed the call's output) resolves those too.
type SpoolState struct {
	hookspool.Current[*HookEvent]
	// Permission is the approval prompt showing, if any: the latest
	// PermissionRequest of the session not followed by its tool's
	// PostToolUse, a Stop, a prompt or a Retire of its tool.
	// PermissionToolID is that tool's call id, from the PreToolUse of the
	// same tool and command before it ("" when none matched).
	Permission       *HookEvent
	PermissionToolID string
}

// Spool reads a run's hook spool directory (see hookspool.Spool).
type Spool struct {
	*hookspool.Spool[*HookEvent, SpoolState]
}

// OpenSpool returns a reader for dir. The directory need not exist yet.
// Compaction deletes resolved PreToolUse and PermissionRequest files
// first, so a crash midway never resurrects a resolved dialog; retiring a
// call also deletes its approval.
func OpenSpool(dir string) *Spool {
	return &Spool{hookspool.Open[HookEvent](dir, hookspool.Config[*HookEvent, SpoolState]{
		Fold:  foldSpool,
		First: []string{HookPreToolUse, HookPermissionRequest},
		Retiring: func(st SpoolState, id string) []string {
			if st.Permission != nil && st.PermissionToolID == id {
				return []string{st.Permission.File}
			}
			return nil
		},
	})}
}

// foldSpool derives the state from the events and says which files the
// state still depends on: besides the session's, the pending questions,
// and the open approval with its call's PreToolUse.
func foldSpool(evs []*HookEvent, retired map[string]bool) (SpoolState, map[string]bool) {
	var perm *HookEvent
	permID := ""
	cur, calls, keep := hookspool.Walk(evs, retired, func(e *HookEvent, calls *hookspool.Calls[*HookEvent]) {
		switch e.Name {
		case HookPermissionRequest:
			perm, permID = e, matchCall(calls, e)
		case HookPostToolUse:
			if perm != nil && (permID == e.ToolUseID || permID == "") {
				perm, permID = nil, ""
			}
		case HookStop, HookUserPromptSubmit:
			perm, permID = nil, ""
		}
	})
	st := SpoolState{Current: cur}
	for _, e := range calls.Open() {
		if e.ToolName == ToolRequestUserInput {
			st.Pending = append(st.Pending, e)
			keep[e.File] = true
		}
	}
	if perm != nil {
		st.Permission, st.PermissionToolID = perm, permID
		keep[perm.File] = true
		if pre, ok := calls.Get(permID); ok {
			keep[pre.File] = true
		}
	}
	return st, keep
}

// matchCall finds the call an approval is about: the newest open call of
// the same tool whose command is the approval's.
func matchCall(calls *hookspool.Calls[*HookEvent], perm *HookEvent) string {
	cmd := perm.command()
	if e, ok := calls.Newest(func(e *HookEvent) bool { return e.ToolName == perm.ToolName && e.command() == cmd }); ok {
		return e.ToolUseID
	}
	return ""
}

// permissionDialog returns the dialog of an approval prompt, built once
// per hook payload (its diff reads files) and copied for each caller.
func (s *Spool) permissionDialog(e *HookEvent, callID string) *conv.Dialog {
	return s.Dialog(e.File, func() *conv.Dialog { return PermissionDialog(callID, e.ToolName, e.ToolInput, e.Cwd, nil) })
}
