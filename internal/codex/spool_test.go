package codex

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lab/internal/conv"
)

// spoolFrom writes the hook payloads a capture recorded (one per line, in
// firing order) into a fresh spool dir, as the hook command would name
// them, and returns the dir.
func spoolFrom(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open("testdata/captured/" + name + ".hooks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := t.TempDir()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := int64(1796000000000000000)
	for sc.Scan() {
		var ev struct {
			Name string `json:"hook_event_name"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		n += 1000
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s.%d.%d.json", ev.Name, n, 100)), sc.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestSpoolPendingQuestion(t *testing.T) {
	s := OpenSpool(spoolFrom(t, "single_pending"))
	st, err := s.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Pending) != 1 || st.Pending[0].ToolName != ToolRequestUserInput || st.Permission != nil {
		t.Fatalf("got %+v; want one pending question, no approval", st)
	}
	side, _ := s.Read()
	d := side.Pending[0]
	// The spool-served dialog is the one the fold makes from the rollout.
	b, _ := os.ReadFile("testdata/captured/single_pending.jsonl")
	if want := foldAll(b).PendingDialog(); string(mustJSON(t, d)) != string(mustJSON(t, want)) {
		t.Fatalf("spool dialog %s; fold dialog %s", mustJSON(t, d), mustJSON(t, want))
	}
	if err := s.Retire(d.ToolID); err != nil {
		t.Fatal(err)
	}
	st, _ = OpenSpool(s.Dir()).Refresh() // a restarted lab
	if len(st.Pending) != 0 {
		t.Fatalf("retired question still pending after a restart: %+v", st.Pending)
	}
}

func TestSpoolAnsweredQuestionIsNotPending(t *testing.T) {
	for _, name := range []string{"single_answered", "form_answered", "single_notes"} {
		st, err := OpenSpool(spoolFrom(t, name)).Refresh()
		if err != nil || len(st.Pending) != 0 || st.LastStop == nil || st.LastPrompt == nil {
			t.Errorf("%s: %+v, %v; want nothing pending, a prompt and a stop", name, st, err)
		}
	}
}

func TestSpoolPermission(t *testing.T) {
	for _, name := range []string{"permission_pending", "edit_approved"} {
		t.Run(name, func(t *testing.T) {
			dir := spoolFrom(t, name)
			// edit_approved: keep only the events up to the prompt.
			if name == "edit_approved" {
				files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
				for _, f := range files {
					if b := filepath.Base(f); strings.HasPrefix(b, HookPostToolUse) || strings.HasPrefix(b, HookStop) {
						os.Remove(f)
					}
				}
			}
			s := OpenSpool(dir)
			st, err := s.Refresh()
			if err != nil {
				t.Fatal(err)
			}
			if st.Permission == nil || st.PermissionToolID == "" || !strings.HasPrefix(st.PermissionToolID, "call_") {
				t.Fatalf("got %+v; want the approval matched to its call", st)
			}
			side, _ := s.Read()
			if len(side.Pending) != 1 || side.Pending[0].Kind != conv.DialogPermission || side.Pending[0].ToolID != st.PermissionToolID || side.Waiting != "" {
				t.Fatalf("Read = %+v; want the approval as a pending permission dialog", side)
			}
			if err := s.Retire(st.PermissionToolID); err != nil {
				t.Fatal(err)
			}
			if st, _ := OpenSpool(dir).Refresh(); st.Permission != nil {
				t.Fatalf("a retired approval shows again after a restart: %+v", st.Permission)
			}
		})
	}
	// Approved: the tool's PostToolUse closes it; denied: the rollout's
	// "aborted by user" output is the only sign, so it waits for Retire.
	st, _ := OpenSpool(spoolFrom(t, "permission_approved")).Refresh()
	if st.Permission != nil {
		t.Fatalf("approved: %+v still showing", st.Permission)
	}
	st, _ = OpenSpool(spoolFrom(t, "permission_denied")).Refresh()
	if st.Permission == nil {
		t.Fatal("denied: no hook closes the approval; want it shown until retired")
	}
}

func TestSpoolCompacts(t *testing.T) {
	dir := spoolFrom(t, "permission_pending")
	// Many finished tool calls before the approval.
	for i := range 80 {
		for _, ev := range []string{HookPreToolUse, HookPostToolUse} {
			b := fmt.Sprintf(`{"session_id":"01a22fba-9629-7da0-8e81-2e10e4f33449","hook_event_name":%q,"tool_name":"Bash","tool_use_id":"old%d","tool_input":{"command":"ls"}}`, ev, i)
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s.%d.%d.json", ev, 1795000000000000000+int64(i)*10, 1)), []byte(b), 0o600)
		}
	}
	s := OpenSpool(dir)
	before, _ := s.Refresh() // compacts past hookspool.CompactAbove files
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	after, _ := OpenSpool(dir).Refresh()
	if len(files) > 10 || after.Permission == nil || after.PermissionToolID != before.PermissionToolID || after.SessionID != before.SessionID {
		t.Fatalf("%d files left; before %+v after %+v; want a handful, the same state", len(files), before, after)
	}
}
