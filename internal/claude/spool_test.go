package claude

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// spoolWriter writes payloads the way the hook does, with increasing times.
type spoolWriter struct {
	t   testing.TB
	dir string
	n   int64
}

func newSpoolWriter(t testing.TB) *spoolWriter {
	return &spoolWriter{t: t, dir: filepath.Join(t.TempDir(), "spool"), n: 1_700_000_000_000_000_000}
}

func (w *spoolWriter) put(event, session string, extra string) string {
	w.t.Helper()
	if err := os.MkdirAll(w.dir, 0o700); err != nil {
		w.t.Fatal(err)
	}
	w.n += 1_000_000
	name := fmt.Sprintf("%s.%d.%d.json", event, w.n, 4242)
	body := fmt.Sprintf(`{"session_id":%q,"transcript_path":"/h/.claude/projects/-w/%s.jsonl","cwd":"/w","hook_event_name":%q%s}`, session, session, event, extra)
	if err := os.WriteFile(filepath.Join(w.dir, name), []byte(body), 0o600); err != nil {
		w.t.Fatal(err)
	}
	return name
}

func (w *spoolWriter) pre(session, id, tool string) string {
	return w.put(HookPreToolUse, session, fmt.Sprintf(`,"tool_name":%q,"tool_use_id":%q,"tool_input":{"questions":[]}`, tool, id))
}

func (w *spoolWriter) post(session, id string) string {
	return w.put(HookPostToolUse, session, fmt.Sprintf(`,"tool_name":"AskUserQuestion","tool_use_id":%q,"tool_response":{}`, id))
}

func pendingIDs(st SpoolState) []string {
	var ids []string
	for _, e := range st.Pending {
		ids = append(ids, e.ToolUseID)
	}
	return ids
}

func refresh(t *testing.T, s *Spool) SpoolState {
	t.Helper()
	st, err := s.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSpoolState(t *testing.T) {
	type step func(w *spoolWriter)
	cases := []struct {
		name        string
		steps       []step
		session     string
		pending     []string
		lastNotif   string
		haveStop    bool
		transcriptS string
	}{
		{"empty", nil, "", nil, "", false, ""},
		{"started", []step{func(w *spoolWriter) { w.put(HookSessionStart, "A", `,"source":"startup"`) }}, "A", nil, "", false, "A"},
		{"question pending", []step{
			func(w *spoolWriter) { w.put(HookSessionStart, "A", `,"source":"startup"`) },
			func(w *spoolWriter) { w.put(HookUserPromptSubmit, "A", `,"prompt":"hi"`) },
			func(w *spoolWriter) { w.pre("A", "t1", "AskUserQuestion") },
			func(w *spoolWriter) {
				w.put(HookNotification, "A", `,"notification_type":"permission_prompt","message":"Claude needs your permission"`)
			},
		}, "A", []string{"t1"}, "permission_prompt", false, "A"},
		{"answered by PostToolUse", []step{
			func(w *spoolWriter) { w.put(HookSessionStart, "A", "") },
			func(w *spoolWriter) { w.pre("A", "t1", "AskUserQuestion") },
			func(w *spoolWriter) { w.post("A", "t1") },
		}, "A", nil, "", false, "A"},
		{"declined then the turn stopped", []step{
			func(w *spoolWriter) { w.put(HookSessionStart, "A", "") },
			func(w *spoolWriter) { w.pre("A", "t1", "ExitPlanMode") },
			func(w *spoolWriter) { w.put(HookStop, "A", `,"last_assistant_message":"ok"`) },
		}, "A", nil, "", true, "A"},
		{"declined then a new prompt", []step{
			func(w *spoolWriter) { w.put(HookSessionStart, "A", "") },
			func(w *spoolWriter) { w.pre("A", "t1", "AskUserQuestion") },
			func(w *spoolWriter) { w.put(HookUserPromptSubmit, "A", `,"prompt":"next"`) },
			func(w *spoolWriter) { w.pre("A", "t2", "AskUserQuestion") },
		}, "A", []string{"t2"}, "", false, "A"},
		{"clear starts a new session and drops the old pending", []step{
			func(w *spoolWriter) { w.put(HookSessionStart, "A", `,"source":"startup"`) },
			func(w *spoolWriter) { w.pre("A", "t1", "AskUserQuestion") },
			func(w *spoolWriter) { w.put(HookSessionStart, "B", `,"source":"clear"`) },
		}, "B", nil, "", false, "B"},
		{"two pending in order", []step{
			func(w *spoolWriter) { w.put(HookSessionStart, "A", "") },
			func(w *spoolWriter) { w.pre("A", "t2", "AskUserQuestion") },
			func(w *spoolWriter) { w.pre("A", "t1", "ExitPlanMode") },
		}, "A", []string{"t2", "t1"}, "", false, "A"},
		{"no SessionStart yet falls back to the latest event", []step{
			func(w *spoolWriter) { w.pre("A", "t1", "AskUserQuestion") },
		}, "A", []string{"t1"}, "", false, "A"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newSpoolWriter(t)
			for _, s := range c.steps {
				s(w)
			}
			st := refresh(t, OpenSpool(w.dir))
			if st.SessionID != c.session {
				t.Errorf("got session %q; want %q", st.SessionID, c.session)
			}
			if want := ""; c.transcriptS != "" {
				want = "/h/.claude/projects/-w/" + c.transcriptS + ".jsonl"
				if st.TranscriptPath != want {
					t.Errorf("got transcript %q; want %q", st.TranscriptPath, want)
				}
			}
			if got := pendingIDs(st); fmt.Sprint(got) != fmt.Sprint(c.pending) {
				t.Errorf("got pending %v; want %v", got, c.pending)
			}
			gotNotif := ""
			if st.LastNotification != nil {
				gotNotif = st.LastNotification.NotificationType
			}
			if gotNotif != c.lastNotif {
				t.Errorf("got notification %q; want %q", gotNotif, c.lastNotif)
			}
			if (st.LastStop != nil) != c.haveStop {
				t.Errorf("got stop %v; want %v", st.LastStop != nil, c.haveStop)
			}
		})
	}
}

func TestSpoolRetireSurvivesARestart(t *testing.T) {
	w := newSpoolWriter(t)
	w.put(HookSessionStart, "A", "")
	w.pre("A", "t1", "AskUserQuestion")
	w.pre("A", "t2", "AskUserQuestion")
	s := OpenSpool(w.dir)
	if got := pendingIDs(refresh(t, s)); fmt.Sprint(got) != "[t1 t2]" {
		t.Fatalf("got %v; want [t1 t2]", got)
	}
	if err := s.Retire("t1"); err != nil {
		t.Fatal(err)
	}
	if got := pendingIDs(refresh(t, s)); fmt.Sprint(got) != "[t2]" {
		t.Fatalf("after Retire got %v; want [t2]", got)
	}
	// A fresh reader (lab restarted) agrees, and still sees t2 pending.
	st := refresh(t, OpenSpool(w.dir))
	if got := pendingIDs(st); fmt.Sprint(got) != "[t2]" {
		t.Fatalf("after restart got %v; want [t2]", got)
	}
	if e, ok := st.PendingTool("t2"); !ok || e.ToolName != "AskUserQuestion" || len(e.Raw) == 0 || e.Time.IsZero() {
		t.Fatalf("got %+v, %v; want the t2 payload", e, ok)
	}
	if _, ok := st.PendingTool("t1"); ok {
		t.Fatal("t1 still pending after Retire")
	}
}

func TestSpoolRetireBeforeTheFileIsRead(t *testing.T) {
	w := newSpoolWriter(t)
	s := OpenSpool(w.dir)
	if err := s.Retire("t1"); err != nil { // the dir does not even exist yet
		t.Fatal(err)
	}
	w.put(HookSessionStart, "A", "")
	w.pre("A", "t1", "AskUserQuestion")
	if got := pendingIDs(refresh(t, s)); len(got) != 0 {
		t.Fatalf("got pending %v; want none (t1 was retired)", got)
	}
}

func TestSpoolCompactKeepsWhatMatters(t *testing.T) {
	w := newSpoolWriter(t)
	w.put(HookSessionStart, "A", "")
	w.pre("A", "old", "AskUserQuestion")
	start := w.put(HookSessionStart, "B", `,"source":"clear"`)
	w.put(HookUserPromptSubmit, "B", `,"prompt":"one"`)
	w.pre("B", "t1", "AskUserQuestion")
	w.post("B", "t1")
	w.put(HookStop, "B", "")
	w.put(HookNotification, "B", `,"notification_type":"idle_prompt"`)
	prompt := w.put(HookUserPromptSubmit, "B", `,"prompt":"two"`)
	stop := w.put(HookStop, "B", "")
	pending := w.pre("B", "t2", "ExitPlanMode")
	notif := w.put(HookNotification, "B", `,"notification_type":"permission_prompt"`)
	// A temp file of a hook still copying must survive compaction.
	tmp := filepath.Join(w.dir, ".PreToolUse.1.2.tmp")
	os.WriteFile(tmp, []byte("{"), 0o600)

	s := OpenSpool(w.dir)
	before := refresh(t, s)
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(w.dir)
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	want := []string{".PreToolUse.1.2.tmp", start, prompt, stop, pending, notif}
	sort.Strings(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after compaction got files\n%v\nwant\n%v", got, want)
	}
	after := refresh(t, OpenSpool(w.dir))
	if after.SessionID != before.SessionID || fmt.Sprint(pendingIDs(after)) != "[t2]" ||
		after.LastPrompt.Prompt != "two" || after.LastNotification.NotificationType != "permission_prompt" || after.LastStop == nil {
		t.Fatalf("state changed by compaction:\nbefore %+v\nafter  %+v", before, after)
	}
}

func TestSpoolIgnoresJunk(t *testing.T) {
	w := newSpoolWriter(t)
	w.put(HookSessionStart, "A", "")
	os.WriteFile(filepath.Join(w.dir, "README"), []byte("x"), 0o600)
	os.WriteFile(filepath.Join(w.dir, "PreToolUse.notanumber.1.json"), []byte("{}"), 0o600)
	os.WriteFile(filepath.Join(w.dir, "PreToolUse.1700000000000000001.1.json"), []byte("{broken"), 0o600)
	os.WriteFile(filepath.Join(w.dir, ".Stop.1.1.tmp"), []byte("{"), 0o600)
	st := refresh(t, OpenSpool(w.dir))
	if st.SessionID != "A" || len(st.Pending) != 0 {
		t.Fatalf("got %+v; want session A, nothing pending", st)
	}
}

// TestSpoolReadsCapturedPayloads runs the real payloads pinned from the CLI
// (testdata/hooks, written by the capture generator) through the spool.
func TestSpoolReadsCapturedPayloads(t *testing.T) {
	cases := []struct {
		file, tool string
		inputKey   string // a key the tool_input must carry
	}{
		{"pretooluse_askuserquestion.json", "AskUserQuestion", `"questions"`},
		{"pretooluse_exitplanmode.json", "ExitPlanMode", `"planFilePath"`},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			dir := t.TempDir()
			copyFixture(t, c.file, filepath.Join(dir, "PreToolUse.1700000000000000002.2.json"))
			pre := readFixtureEvent(t, c.file)
			if pre.ToolName != c.tool || !strings.HasPrefix(pre.ToolUseID, "toolu_") || !strings.Contains(string(pre.ToolInput), c.inputKey) || pre.PermissionMode == "" {
				t.Fatalf("got %+v; want a %s PreToolUse with tool_use_id, %s and permission_mode", pre, c.tool, c.inputKey)
			}
			st := refresh(t, OpenSpool(dir))
			if st.SessionID != pre.SessionID || st.TranscriptPath != pre.TranscriptPath {
				t.Fatalf("got session %q %q; want the payload's %q %q", st.SessionID, st.TranscriptPath, pre.SessionID, pre.TranscriptPath)
			}
			if got, ok := st.PendingTool(pre.ToolUseID); !ok || got.ToolName != c.tool {
				t.Fatalf("got pending %v; want %s", pendingIDs(st), pre.ToolUseID)
			}
		})
	}
	t.Run("sessionstart.json", func(t *testing.T) {
		dir := t.TempDir()
		copyFixture(t, "sessionstart.json", filepath.Join(dir, "SessionStart.1700000000000000001.1.json"))
		st := refresh(t, OpenSpool(dir))
		if !strings.HasSuffix(st.TranscriptPath, "/"+st.SessionID+".jsonl") || st.Source != "startup" || st.Model == "" {
			t.Fatalf("got %+v; want the transcript named by the session, source startup and a model", st)
		}
	})
}

func copyFixture(t *testing.T, name, dst string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "hooks", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFixtureEvent(t *testing.T, name string) HookEvent {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "hooks", name))
	if err != nil {
		t.Fatal(err)
	}
	var e HookEvent
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	return e
}

// BenchmarkSpoolRefresh measures a refresh of a compacted spool with a
// pending dialog when nothing changed, the common case on every Get.
func BenchmarkSpoolRefresh(b *testing.B) {
	w := newSpoolWriter(b)
	w.put(HookSessionStart, "A", "")
	for i := 0; i < 10; i++ {
		w.put(HookUserPromptSubmit, "A", `,"prompt":"p"`)
		w.put(HookStop, "A", "")
	}
	w.pre("A", "t1", "AskUserQuestion")
	s := OpenSpool(w.dir)
	if _, err := s.Refresh(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Refresh(); err != nil {
			b.Fatal(err)
		}
	}
}
