package claude

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"lab/internal/conv"
)

// replayHooks writes a captured <name>.hooks.jsonl into a spool dir, one
// file per payload in firing order, the first n of them (all for n < 0).
func replayHooks(t *testing.T, name string, n int) string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "captured", name+".hooks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := t.TempDir()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for i := 0; sc.Scan() && (n < 0 || i < n); i++ {
		var e struct {
			Name string `json:"hook_event_name"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		file := fmt.Sprintf("%s.%d.%d.json", e.Name, 1_700_000_000_000_000_000+int64(i)*1_000_000, 100+i)
		if err := os.WriteFile(filepath.Join(dir, file), sc.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A real permission prompt's hooks: the Bash call's PreToolUse (with its
// tool_use id) and the PermissionRequest (without one) pair into one ask,
// served as a permission dialog for that tool_use id.
func TestSpoolPairsAPermissionRequestWithItsCall(t *testing.T) {
	sp := OpenSpool(replayHooks(t, "permission_pending", -1))
	st := refresh(t, sp)
	if len(st.Pending) != 0 || len(st.Asks) != 1 {
		t.Fatalf("got pending %v asks %d; want no dialog tool and one ask", pendingIDs(st), len(st.Asks))
	}
	a := st.Asks[0]
	if a.Tool.ToolName != "Bash" || a.Ask.Name != HookPermissionRequest || a.Tool.ToolUseID == "" {
		t.Fatalf("got ask %+v", a)
	}
	side, err := sp.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(side.Pending) != 1 {
		t.Fatalf("got %d pending dialogs; want 1", len(side.Pending))
	}
	d := side.Pending[0]
	if d.Kind != conv.DialogPermission || d.ToolID != a.Tool.ToolUseID || d.Permission.Command != "touch lab-permission-probe.txt && echo created" {
		t.Fatalf("got dialog %+v %+v", d, d.Permission)
	}
	// The transcript shows the call resolved: retiring it ends the ask,
	// across a restart too.
	if err := sp.Retire(d.ToolID); err != nil {
		t.Fatal(err)
	}
	if st := refresh(t, OpenSpool(sp.Dir())); len(st.Asks) != 0 {
		t.Fatalf("after retiring, a new reader sees asks %+v", st.Asks)
	}
}

// Once the turn ends (Stop), a denied call's ask is gone even before the
// transcript is read; before it, the ask stands.
func TestSpoolAskEndsWithTheTurn(t *testing.T) {
	if st := refresh(t, OpenSpool(replayHooks(t, "permission_denied_feedback", 4))); len(st.Asks) != 1 {
		t.Fatalf("before Stop got %d asks; want 1", len(st.Asks))
	}
	if st := refresh(t, OpenSpool(replayHooks(t, "permission_denied_feedback", -1))); len(st.Asks) != 0 {
		t.Fatalf("after Stop got %d asks; want 0", len(st.Asks))
	}
}

// A permission request pairs only with a call of the same tool and input
// that is still open, the newest one before it.
func TestSpoolAskPairing(t *testing.T) {
	w := newSpoolWriter(t)
	w.put(HookSessionStart, "A", "")
	bash := func(id, cmd string) string {
		return w.put(HookPreToolUse, "A", fmt.Sprintf(`,"tool_name":"Bash","tool_use_id":%q,"tool_input":{"command":%q}`, id, cmd))
	}
	ask := func(cmd string) string {
		return w.put(HookPermissionRequest, "A", fmt.Sprintf(`,"tool_name":"Bash","tool_input":{"command":%q}`, cmd))
	}
	bash("t1", "ls")
	w.put(HookPostToolUse, "A", `,"tool_name":"Bash","tool_use_id":"t1"`)
	bash("t2", "rm x")
	bash("t3", "ls")
	ask("ls")      // t3: t1 ended
	ask("make it") // no such call: ignored
	// A dialog tool's permission request is its picker, not an ask.
	w.put(HookPermissionRequest, "A", `,"tool_name":"AskUserQuestion","tool_input":{"questions":[]}`)
	st := refresh(t, OpenSpool(w.dir))
	if len(st.Asks) != 1 || st.Asks[0].Tool.ToolUseID != "t3" {
		t.Fatalf("got asks %+v; want one for t3", st.Asks)
	}
	// The call finishing (allowed) ends the ask; compaction then drops it.
	w.put(HookPostToolUse, "A", `,"tool_name":"Bash","tool_use_id":"t3"`)
	s := OpenSpool(w.dir)
	if st := refresh(t, s); len(st.Asks) != 0 {
		t.Fatalf("after PostToolUse got asks %+v", st.Asks)
	}
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(w.dir)
	for _, e := range ents {
		if filepath.Ext(e.Name()) == ".json" && e.Name()[:len(HookPermissionRequest)] == HookPermissionRequest {
			t.Errorf("compaction kept %s", e.Name())
		}
	}
}
