package codex

import (
	"encoding/json"
	"strings"
	"sync"
	"time"

	"lab/internal/conv"
	"lab/internal/hookspool"
)

// HookEvent is one spooled hook payload. Codex sends the same fields as
// Claude Code's hooks (plus turn_id); fields not carried by the event are
// empty; Raw is the payload as the CLI sent it.
type HookEvent struct {
	Name string    // hook_event_name, from the file name
	File string    // base name in the spool dir
	Time time.Time // when the hook ran (from the file name)

	SessionID      string `json:"session_id"`
	TurnID         string `json:"turn_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	PermissionMode string `json:"permission_mode"`

	Source string `json:"source"` // SessionStart: startup, resume, clear
	Model  string `json:"model"`
	Prompt string `json:"prompt"` // UserPromptSubmit

	// Pre/PostToolUse and PermissionRequest. exec_command is named "Bash"
	// with tool_input {command, description}; apply_patch carries its
	// patch as tool_input.command. PermissionRequest has no tool_use_id.
	ToolName     string          `json:"tool_name"`
	ToolUseID    string          `json:"tool_use_id"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"` // PostToolUse

	LastAssistantMessage string `json:"last_assistant_message"` // Stop

	Raw json.RawMessage `json:"-"`

	key hookspool.Key
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

// SpoolState is what a run's spool says right now.
type SpoolState struct {
	// SessionID and TranscriptPath come from the latest SessionStart (the
	// plan picker's "clear context" starts a new session and rollout),
	// else from the latest event of any kind.
	SessionID      string
	TranscriptPath string
	Source         string // the latest SessionStart's source
	Model          string
	// Pending are the PreToolUse payloads of request_user_input calls of
	// the current session not yet resolved, oldest first. One is resolved
	// by its PostToolUse, by a later Stop or UserPromptSubmit of the same
	// session, or by Retire (the rollout showed its output: an Escape or
	// interrupt fires no hook).
	Pending []HookEvent
	// Permission is the approval prompt showing, if any: the latest
	// PermissionRequest of the session not followed by its tool's
	// PostToolUse, a Stop, a prompt or a Retire of its tool.
	// PermissionToolID is that tool's call id, from the PreToolUse of the
	// same tool and command before it ("" when none matched).
	Permission       *HookEvent
	PermissionToolID string
	// The latest events of the current session, nil when none.
	LastPrompt *HookEvent
	LastStop   *HookEvent
	// Events counts the payloads read, for diagnostics.
	Events int
}

// PendingTool returns the pending PreToolUse for toolUseID.
func (s SpoolState) PendingTool(toolUseID string) (HookEvent, bool) {
	for _, e := range s.Pending {
		if e.ToolUseID == toolUseID {
			return e, true
		}
	}
	return HookEvent{}, false
}

// Spool reads a run's hook spool directory. It caches parsed payloads
// (spooled files never change once renamed into place) and is safe for
// concurrent use. All its state is derived from the files on disk, so a
// new Spool over the same dir (a restarted lab) sees the same pending
// dialogs.
type Spool struct {
	dir string

	mu      sync.Mutex
	files   *hookspool.Dir[*HookEvent]
	retired map[string]bool         // call ids retired by the live layer
	dialogs map[string]*conv.Dialog // permission dialogs built, by file name
}

// OpenSpool returns a reader for dir. The directory need not exist yet.
func OpenSpool(dir string) *Spool {
	return &Spool{dir: dir, files: hookspool.NewDir(dir, parseEvent), retired: map[string]bool{}, dialogs: map[string]*conv.Dialog{}}
}

// Dir is the spool directory (for watchers).
func (s *Spool) Dir() string { return s.dir }

// compactAbove is the number of spooled files past which Refresh compacts.
// Codex spools every tool call (Pre and PostToolUse), so it fills faster
// than Claude Code's dialog-only spool.
const compactAbove = 64

// Refresh reads any new payloads and returns the state. Unreadable or
// malformed files are skipped (a hook killed mid-copy leaves only a
// dot-temp file, which is never read).
func (s *Spool) Refresh() (SpoolState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(); err != nil {
		return SpoolState{}, err
	}
	st, _ := s.fold()
	if s.files.Len() > compactAbove {
		if err := s.compactLocked(); err != nil {
			return st, err
		}
	}
	return st, nil
}

// Retire marks a call id resolved (the rollout showed its output, which
// for an Escape, an interrupt or a denial is the only sign): its pending
// question or approval is never served again. The PreToolUse and
// PermissionRequest files behind it are deleted, so a restarted lab does
// not resurrect them.
func (s *Spool) Retire(toolUseID string) error {
	if toolUseID == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(); err != nil {
		return err
	}
	st, _ := s.fold() // before retiring: the approval to drop is still in it
	s.retired[toolUseID] = true
	var drop []string
	for _, e := range s.files.Events() {
		if e.Name == HookPreToolUse && e.ToolUseID == toolUseID {
			drop = append(drop, e.File)
		}
	}
	if st.Permission != nil && st.PermissionToolID == toolUseID {
		drop = append(drop, st.Permission.File)
	}
	return s.files.Remove(drop...)
}

// Compact deletes payloads that can no longer change the state: resolved
// PreToolUse and PermissionRequest files first (so a crash mid-way never
// resurrects a resolved dialog), then PostToolUse files, superseded
// SessionStart, Stop and UserPromptSubmit files, and abandoned temp files.
func (s *Spool) Compact() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(); err != nil {
		return err
	}
	return s.compactLocked()
}

func (s *Spool) compactLocked() error {
	_, keep := s.fold()
	return s.files.Compact(keep, HookPreToolUse, HookPermissionRequest) // first: see Compact
}

// load syncs with the spool folder.
func (s *Spool) load() error { return s.files.Load() }

// parseEvent reads one spooled payload. A spooled file is complete by
// construction; a bad one is not going to get better, so it is remembered
// as an empty event.
func parseEvent(k hookspool.Key, b []byte) *HookEvent {
	e := &HookEvent{}
	if err := json.Unmarshal(b, e); err != nil {
		e = &HookEvent{}
	}
	e.Name, e.File, e.Raw, e.key, e.Time = k.Event, k.Name, b, k, k.Time()
	return e
}

// fold derives the state from the cached events and says which files the
// state still depends on.
func (s *Spool) fold() (SpoolState, map[string]bool) {
	evs := s.files.Events()

	var st SpoolState
	st.Events = len(evs)
	var start, latest *HookEvent
	for _, e := range evs {
		if e.SessionID == "" {
			continue
		}
		latest = e
		if e.Name == HookSessionStart {
			start = e
		}
	}
	cur := start
	if cur == nil {
		cur = latest
	}
	keep := map[string]bool{}
	if cur == nil {
		return st, keep
	}
	st.SessionID, st.TranscriptPath = cur.SessionID, cur.TranscriptPath
	if start != nil {
		st.Source, st.Model = start.Source, start.Model
		keep[start.File] = true
	}
	// Walk the session's events in order: open questions by call id, calls
	// started (for matching an approval to its call), the open approval.
	open := map[string]*HookEvent{}
	var order []string
	started := map[string]*HookEvent{} // call id -> PreToolUse, until its PostToolUse
	var perm *HookEvent
	permID := ""
	for _, e := range evs {
		if e.SessionID != st.SessionID {
			continue
		}
		switch e.Name {
		case HookPreToolUse:
			if e.ToolUseID == "" || s.retired[e.ToolUseID] {
				continue
			}
			started[e.ToolUseID] = e
			if e.ToolName == ToolRequestUserInput {
				if _, dup := open[e.ToolUseID]; !dup {
					order = append(order, e.ToolUseID)
				}
				open[e.ToolUseID] = e
			}
		case HookPermissionRequest:
			perm, permID = e, matchCall(started, e)
			if permID != "" && s.retired[permID] {
				perm, permID = nil, ""
			}
		case HookPostToolUse:
			delete(open, e.ToolUseID)
			delete(started, e.ToolUseID)
			if perm != nil && (permID == e.ToolUseID || permID == "") {
				perm, permID = nil, ""
			}
		case HookStop:
			clear(open)
			clear(started)
			perm, permID = nil, ""
			st.LastStop = e
		case HookUserPromptSubmit:
			clear(open)
			clear(started)
			perm, permID = nil, ""
			st.LastPrompt = e
		}
	}
	for _, id := range order {
		if e, ok := open[id]; ok {
			st.Pending = append(st.Pending, *e)
			keep[e.File] = true
			delete(open, id)
		}
	}
	if perm != nil {
		st.Permission, st.PermissionToolID = perm, permID
		keep[perm.File] = true
		if pre, ok := started[permID]; ok {
			keep[pre.File] = true
		}
	}
	for _, e := range []*HookEvent{st.LastStop, st.LastPrompt} {
		if e != nil {
			keep[e.File] = true
		}
	}
	return st, keep
}

// matchCall finds the call an approval is about: the newest started call
// of the same tool whose command is the approval's.
func matchCall(started map[string]*HookEvent, perm *HookEvent) string {
	var best *HookEvent
	cmd := perm.command()
	for _, e := range started {
		if e.ToolName != perm.ToolName || e.command() != cmd {
			continue
		}
		if best == nil || best.key.Less(e.key) {
			best = e
		}
	}
	if best == nil {
		return ""
	}
	return best.ToolUseID
}
