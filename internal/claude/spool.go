package claude

import (
	"bytes"
	"encoding/json"
	"reflect"

	"lab/internal/conv"
	"lab/internal/hookspool"
)

// HookEvent is one spooled hook payload: the fields both CLIs send
// (hookspool.Event) and Claude Code's own. Fields not carried by the
// event are empty.
type HookEvent struct {
	hookspool.Event

	NotificationType string `json:"notification_type"` // Notification
	Message          string `json:"message"`           // Notification
}

// SpoolState is what a run's spool says right now. Its Pending are the
// dialog tools' calls (AskUserQuestion, ExitPlanMode).
type SpoolState struct {
	hookspool.Current[*HookEvent]
	// Asks are the permission prompts of the current session not yet
	// resolved, oldest first: each PermissionRequest paired with the
	// unresolved PreToolUse of the same call (same tool and input), which
	// carries the tool_use id the request lacks.
	Asks []PermissionAsk
	// The latest Notification of the current session, nil when none.
	LastNotification *HookEvent
}

// PermissionAsk is one permission prompt: the call's PreToolUse and the
// PermissionRequest that asked about it.
type PermissionAsk struct {
	Tool HookEvent
	Ask  HookEvent
}

// Spool reads a run's hook spool directory (see hookspool.Spool).
type Spool struct {
	*hookspool.Spool[*HookEvent, SpoolState]
}

// OpenSpool returns a reader for dir. The directory need not exist yet.
// Compaction deletes resolved or stale PreToolUse files first, so a crash
// midway never resurrects a resolved dialog.
func OpenSpool(dir string) *Spool {
	return &Spool{hookspool.Open[HookEvent](dir, hookspool.Config[*HookEvent, SpoolState]{
		Fold:  foldSpool,
		First: []string{HookPreToolUse},
	})}
}

// foldSpool derives the state from the events and says which files the
// state still depends on: besides the session's, every call still running
// (until it ends), the asks and the latest notification.
func foldSpool(evs []*HookEvent, retired map[string]bool) (SpoolState, map[string]bool) {
	type ask struct{ tool, req *HookEvent }
	var asks []ask
	var notif *HookEvent
	cur, calls, keep := hookspool.Walk(evs, retired, func(e *HookEvent, calls *hookspool.Calls[*HookEvent]) {
		switch e.Name {
		case HookPermissionRequest:
			if DialogTool(e.ToolName) {
				return // its picker is the dialog itself
			}
			// The newest open call of the same tool and input.
			if t, ok := calls.Newest(func(t *HookEvent) bool { return t.ToolName == e.ToolName && sameJSON(t.ToolInput, e.ToolInput) }); ok {
				asks = append(asks, ask{t, e})
			}
		case HookNotification:
			notif = e
		}
	})
	st := SpoolState{Current: cur, LastNotification: notif}
	for _, a := range asks {
		if t, _ := calls.Get(a.tool.ToolUseID); t != a.tool {
			continue // resolved, retired or superseded since
		}
		st.Asks = append(st.Asks, PermissionAsk{Tool: *a.tool, Ask: *a.req})
		keep[a.req.File] = true
	}
	for _, e := range calls.Open() {
		if DialogTool(e.ToolName) {
			st.Pending = append(st.Pending, e)
		}
		keep[e.File] = true // a call still running stays until it ends
	}
	if notif != nil {
		keep[notif.File] = true
	}
	return st, keep
}

// sameJSON reports whether two JSON values are equal as values.
func sameJSON(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// permissionDialog returns the dialog of a permission prompt, built once
// per call (a file change's diff reads the file).
func (s *Spool) permissionDialog(a PermissionAsk) *conv.Dialog {
	return s.Dialog(a.Tool.File, func() *conv.Dialog { return PermissionDialog(a.Tool.ToolUseID, a.Tool.ToolName, a.Tool.ToolInput) })
}
