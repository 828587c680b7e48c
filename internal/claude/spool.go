package claude

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sync"
	"time"

	"lab/internal/conv"
	"lab/internal/hookspool"
)

// HookEvent is one spooled hook payload. Fields not carried by the event
// are empty; Raw is the payload as the CLI sent it.
type HookEvent struct {
	Name string    // hook_event_name, from the file name
	File string    // base name in the spool dir
	Time time.Time // when the hook ran (from the file name)

	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	PermissionMode string `json:"permission_mode"`

	Source string `json:"source"` // SessionStart: startup, clear, resume…
	Model  string `json:"model"`  // SessionStart
	Prompt string `json:"prompt"` // UserPromptSubmit

	ToolName     string          `json:"tool_name"`   // Pre/PostToolUse
	ToolUseID    string          `json:"tool_use_id"` // Pre/PostToolUse
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"` // PostToolUse

	NotificationType string `json:"notification_type"` // Notification
	Message          string `json:"message"`           // Notification

	LastAssistantMessage string `json:"last_assistant_message"` // Stop

	Raw json.RawMessage `json:"-"`

	key hookspool.Key
}

// SpoolState is what a run's spool says right now.
type SpoolState struct {
	// SessionID and TranscriptPath come from the latest SessionStart (a
	// /clear starts a new session and transcript), else from the latest
	// event of any kind.
	SessionID      string
	TranscriptPath string
	Source         string // the latest SessionStart's source
	Model          string
	// Pending are the PreToolUse payloads of the dialog tools
	// (AskUserQuestion, ExitPlanMode) of the current session not yet
	// resolved, oldest first. A PreToolUse is resolved by its PostToolUse,
	// by a later Stop or UserPromptSubmit of the same session (the picker
	// must have closed for either to happen), or by Retire.
	Pending []HookEvent
	// Asks are the permission prompts of the current session not yet
	// resolved, oldest first: each PermissionRequest paired with the
	// unresolved PreToolUse of the same call (same tool and input), which
	// carries the tool_use id the request lacks.
	Asks []PermissionAsk
	// The latest events of the current session, nil when none.
	LastPrompt       *HookEvent
	LastNotification *HookEvent
	LastStop         *HookEvent
	// Events counts the payloads read, for diagnostics.
	Events int
}

// PermissionAsk is one permission prompt: the call's PreToolUse and the
// PermissionRequest that asked about it.
type PermissionAsk struct {
	Tool HookEvent
	Ask  HookEvent
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
	retired map[string]bool         // tool_use_ids retired by the live layer
	dialogs map[string]*conv.Dialog // permission dialogs by PreToolUse file: diffs are built once
}

// OpenSpool returns a reader for dir. The directory need not exist yet.
func OpenSpool(dir string) *Spool {
	return &Spool{dir: dir, files: hookspool.NewDir(dir, parseEvent), retired: map[string]bool{}, dialogs: map[string]*conv.Dialog{}}
}

// Dir is the spool directory (for watchers).
func (s *Spool) Dir() string { return s.dir }

// compactAbove is the number of spooled files past which Refresh compacts.
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

// Retire marks toolUseID resolved (the transcript showed its result, which
// for a declined picker is the only sign). The PreToolUse file is deleted,
// so a restarted lab does not resurrect it.
func (s *Spool) Retire(toolUseID string) error {
	if toolUseID == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.retired[toolUseID] = true
	if err := s.load(); err != nil {
		return err
	}
	var drop []string
	for _, e := range s.files.Events() {
		if e.Name == HookPreToolUse && e.ToolUseID == toolUseID {
			drop = append(drop, e.File)
		}
	}
	return s.files.Remove(drop...)
}

// Compact deletes payloads that can no longer change the state: resolved
// or stale PreToolUse files first (so a crash mid-way never resurrects a
// resolved dialog), then PostToolUse files, superseded SessionStart,
// Notification, Stop and UserPromptSubmit files, and abandoned temp files.
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
	return s.files.Compact(keep, HookPreToolUse) // first: see Compact
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
	// Walk the current session's events in order, tracking open tool
	// calls and the permission requests about them.
	open := map[string]*HookEvent{}
	var order []string
	type ask struct{ tool, req *HookEvent }
	var asks []ask
	for _, e := range evs {
		if e.SessionID != st.SessionID {
			continue
		}
		switch e.Name {
		case HookPreToolUse:
			if e.ToolUseID != "" && !s.retired[e.ToolUseID] {
				if _, dup := open[e.ToolUseID]; !dup {
					order = append(order, e.ToolUseID)
				}
				open[e.ToolUseID] = e
			}
		case HookPermissionRequest:
			if DialogTool(e.ToolName) {
				continue // its picker is the dialog itself
			}
			if t := latestCall(open, order, e); t != nil {
				asks = append(asks, ask{t, e})
			}
		case HookPostToolUse:
			delete(open, e.ToolUseID)
		case HookStop:
			clear(open)
			st.LastStop = e
		case HookUserPromptSubmit:
			clear(open)
			st.LastPrompt = e
		case HookNotification:
			st.LastNotification = e
		}
	}
	for _, a := range asks {
		if open[a.tool.ToolUseID] != a.tool {
			continue // resolved, retired or superseded since
		}
		st.Asks = append(st.Asks, PermissionAsk{Tool: *a.tool, Ask: *a.req})
		keep[a.req.File] = true
	}
	for _, id := range order {
		if e, ok := open[id]; ok {
			if DialogTool(e.ToolName) {
				st.Pending = append(st.Pending, *e)
			}
			keep[e.File] = true // a call still running stays until it ends
			delete(open, id)
		}
	}
	for _, e := range []*HookEvent{st.LastStop, st.LastPrompt, st.LastNotification} {
		if e != nil {
			keep[e.File] = true
		}
	}
	return st, keep
}

// latestCall returns the newest open call the permission request e is
// about: same tool, same input.
func latestCall(open map[string]*HookEvent, order []string, e *HookEvent) *HookEvent {
	for i := len(order) - 1; i >= 0; i-- {
		t, ok := open[order[i]]
		if ok && t.ToolName == e.ToolName && sameJSON(t.ToolInput, e.ToolInput) {
			return t
		}
	}
	return nil
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
	s.mu.Lock()
	d, ok := s.dialogs[a.Tool.File]
	s.mu.Unlock()
	if !ok {
		d = PermissionDialog(a.Tool.ToolUseID, a.Tool.ToolName, a.Tool.ToolInput)
		s.mu.Lock()
		if len(s.dialogs) > 64 {
			clear(s.dialogs)
		}
		s.dialogs[a.Tool.File] = d
		s.mu.Unlock()
	}
	return d.Clone()
}
