package claude

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"lab/internal/conv"
	"lab/internal/foldkit"
)

func TestFoldMessagesAreCopies(t *testing.T) {
	f := fxFold(fxUser(t, "go", nil), fxAssistant(t, "tool_use", fxToolUse("toolu_1", "Bash", fxObj{"command": "ls"})))
	before, _ := f.Messages(0, 0, 0)
	before[1].Tool.Output = "edited by the caller"
	before[1].Tool.Status = conv.ToolError
	f.Write([]byte(fxResult(t, "toolu_1", "a.txt", false, nil)))
	after, _ := f.Messages(0, 0, 0)
	if got := after[1].Tool; got.Output != "a.txt" || got.Status != conv.ToolOK {
		t.Errorf("fold's tool after back-patch = %+v; want output a.txt, ok", got)
	}
	if before[1].Tool.Output != "edited by the caller" {
		t.Errorf("the back-patch reached a copy handed out earlier: %q", before[1].Tool.Output)
	}
	if before[1].ContentHash == after[1].ContentHash {
		t.Error("content hash did not change with the tool's result")
	}
	m := after[1]
	m.SetHash()
	if m.ContentHash != after[1].ContentHash {
		t.Errorf("served hash %s; want the re-stamped %s", after[1].ContentHash, m.ContentHash)
	}
}

func TestFoldTakeBackpatch(t *testing.T) {
	f := NewFold()
	step := func(line string, want int) {
		t.Helper()
		f.Write([]byte(line))
		if got := f.TakeBackpatch(); got != want {
			t.Fatalf("after %.60q: TakeBackpatch() = %d; want %d", line, got, want)
		}
	}
	step(fxUser(t, "go", nil), 0)
	step(fxAssistant(t, "tool_use", fxToolUse("toolu_1", "Bash", fxObj{"command": "ls"}), fxToolUse("toolu_2", "Read", fxObj{"file_path": "/x"})), 0)
	step(fxResult(t, "toolu_2", "x", false, nil), 3) // behind the previous Len
	step(fxResult(t, "toolu_1", "y", false, nil), 2)
	// A tool that appears and resolves between two calls is new, not a back-patch.
	step(fxAssistant(t, "tool_use", fxToolUse("toolu_3", "Bash", fxObj{"command": "pwd"}))+fxResult(t, "toolu_3", "/", false, nil), 0)
	step(fxAsk(t, "toolu_q", fxQDB), 0)
	step(fxUser(t, []fxObj{fxText("[Request interrupted by user for tool use]")}, nil), 5) // the dialog dismissed
	step(fxResult(t, "toolu_q", "late", false, nil), 0)                                    // the first resolution stands
}

func TestFoldToolChips(t *testing.T) {
	long := strings.Repeat("é", 3000) // 6000 bytes, 2-byte runes
	tests := []struct {
		name        string
		tool        string
		input       fxObj
		content     any
		isError     bool
		wantInput   string
		wantOutput  string
		wantBytes   int
		wantTrunc   bool
		wantStatus  conv.ToolStatus
		outputCheck func(string) bool
	}{
		{name: "bash", tool: "Bash", input: fxObj{"command": "ls -la", "description": "list"}, content: "a\nb",
			wantInput: "ls -la", wantOutput: "a\nb", wantBytes: 3, wantStatus: conv.ToolOK},
		{name: "multi-line command", tool: "Bash", input: fxObj{"command": "cat <<EOF\nx\nEOF"}, content: "",
			wantInput: "cat <<EOF …", wantStatus: conv.ToolOK},
		{name: "error", tool: "Read", input: fxObj{"file_path": "/nope"}, content: "<tool_use_error>File does not exist.</tool_use_error>", isError: true,
			wantInput: "/nope", wantOutput: "<tool_use_error>File does not exist.</tool_use_error>", wantBytes: 53, wantStatus: conv.ToolError},
		{name: "write shows the path, not the content", tool: "Write", input: fxObj{"file_path": "/a.go", "content": strings.Repeat("x", 100000)},
			content: "ok", wantInput: "/a.go", wantOutput: "ok", wantBytes: 2, wantStatus: conv.ToolOK},
		{name: "grep pattern in path", tool: "Grep", input: fxObj{"pattern": "func main", "path": "/src"}, content: "",
			wantInput: "func main in /src", wantStatus: conv.ToolOK},
		{name: "unknown tool shows its raw input", tool: "mcp__x__y", input: fxObj{"n": 3}, content: "",
			wantInput: `{"n":3}`, wantStatus: conv.ToolOK},
		{name: "long output cut on a rune boundary", tool: "Bash", input: fxObj{"command": "x"}, content: long,
			wantInput: "x", wantBytes: 6000, wantTrunc: true, wantStatus: conv.ToolOK,
			outputCheck: func(s string) bool {
				return len(s) <= foldkit.OutputMax && len(s) >= foldkit.OutputMax-1 && utf8.ValidString(s)
			}},
		{name: "text and image blocks", tool: "Read", input: fxObj{"file_path": "/p.png"},
			content:   []fxObj{{"type": "text", "text": "one"}, {"type": "image", "source": fxObj{"data": "AAAA"}}, {"type": "text", "text": "two"}},
			wantInput: "/p.png", wantOutput: "one\n[image]\ntwo", wantBytes: 15, wantStatus: conv.ToolOK},
		{name: "escaped output counts decoded bytes", tool: "Bash", input: fxObj{"command": "x"}, content: "tab\there \"q\" \u2603",
			wantInput: "x", wantOutput: "tab\there \"q\" \u2603", wantBytes: 16, wantStatus: conv.ToolOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := fxFold(fxAssistant(t, "tool_use", fxToolUse("toolu_1", tc.tool, tc.input)), fxResult(t, "toolu_1", tc.content, tc.isError, nil))
			msgs, _ := f.Messages(0, 0, 0)
			if len(msgs) != 1 || msgs[0].Tool == nil {
				t.Fatalf("got %+v; want one tool message", msgs)
			}
			got := msgs[0].Tool
			if got.Input != tc.wantInput || got.Status != tc.wantStatus || got.OutputBytes != tc.wantBytes || got.OutputTruncated != tc.wantTrunc {
				t.Errorf("got input %q status %s bytes %d truncated %v; want %q %s %d %v",
					got.Input, got.Status, got.OutputBytes, got.OutputTruncated, tc.wantInput, tc.wantStatus, tc.wantBytes, tc.wantTrunc)
			}
			if tc.outputCheck != nil {
				if !tc.outputCheck(got.Output) {
					t.Errorf("output of %d bytes fails the check", len(got.Output))
				}
			} else if got.Output != tc.wantOutput {
				t.Errorf("got output %q; want %q", got.Output, tc.wantOutput)
			}
		})
	}
}

// TestFoldSkipsHugeBookkeepingWithoutHolding feeds a 20 MB request blob in
// 64 KB pieces: its prefix marks it skippable, so the fold never buffers it.
func TestFoldSkipsHugeBookkeepingWithoutHolding(t *testing.T) {
	blob := `{"type":"api-request-blob","sessionId":"s","hash":"h","message":{"role":"user","content":[{"type":"text","text":"` +
		strings.Repeat("x", 20<<20) + `"}]}}` + "\n"
	data := []byte(fxUser(t, "before", nil) + blob + fxUser(t, "after", nil))
	f := NewFold()
	maxHeld := 0
	for len(data) > 0 {
		n := min(64<<10, len(data))
		f.Write(data[:n])
		data = data[n:]
		_, c := f.Held()
		maxHeld = max(maxHeld, c)
	}
	if maxHeld > 256<<10 {
		t.Errorf("held up to %d bytes of a skippable line; want no more than a piece", maxHeld)
	}
	msgs, _ := f.Messages(0, 0, 0)
	if len(msgs) != 2 || msgs[0].Text != "before" || msgs[1].Text != "after" || f.Lines() != 3 || f.SkippedLines() != 0 {
		t.Errorf("got %d messages, %d lines, %d skipped; want before/after, 3 lines, 0 skipped", len(msgs), f.Lines(), f.SkippedLines())
	}
}

// TestFoldLongShownLine folds a tool result line of several megabytes fed
// in pieces, and releases the big line buffer afterwards.
func TestFoldLongShownLine(t *testing.T) {
	out := strings.Repeat("0123456789abcdef\n", 300000) // 5.1 MB
	data := []byte(fxAssistant(t, "tool_use", fxToolUse("toolu_1", "Bash", fxObj{"command": "big"})) +
		fxResult(t, "toolu_1", out, false, fxObj{"toolUseResult": fxObj{"stdout": out}}))
	f := NewFold()
	for len(data) > 0 {
		n := min(100000, len(data))
		f.Write(data[:n])
		data = data[n:]
	}
	msgs, _ := f.Messages(0, 0, 0)
	if len(msgs) != 1 || msgs[0].Tool.OutputBytes != len(out) || !strings.HasPrefix(out, msgs[0].Tool.Output) {
		t.Fatalf("got %+v; want one tool with %d output bytes", msgs, len(out))
	}
	if _, c := f.Held(); c > foldkit.PartialKeep {
		t.Errorf("kept a %d-byte line buffer after the line; want at most %d", c, foldkit.PartialKeep)
	}
}

func TestFoldCounters(t *testing.T) {
	f := NewFold()
	line := fxUser(t, "hi", nil)
	f.Write([]byte(strings.ReplaceAll(line, "\n", "\r\n") + "\n\n" + `{"broken` + "\n"))
	f.Write([]byte(line[:10]))
	if f.Len() != 1 || f.Lines() != 4 || f.SkippedLines() != 1 || f.Bytes() != int64(len(line)+1+2+9+10) {
		t.Errorf("Len %d Lines %d Skipped %d Bytes %d; want 1, 4, 1, %d", f.Len(), f.Lines(), f.SkippedLines(), f.Bytes(), len(line)+1+2+9+10)
	}
	if f.SessionID() != "sess-1" {
		t.Errorf("SessionID() = %q; want sess-1", f.SessionID())
	}
}

// TestFoldDialogsNeverTruncated folds a plan and a question far longer than
// any display limit and requires them whole.
func TestFoldDialogsNeverTruncated(t *testing.T) {
	plan := "# Plan\n\n" + strings.Repeat("- a step that is long enough to matter\n", 5000)
	q := strings.Repeat("Which of these? ", 2000)
	f := fxFold(fxPlan(t, "toolu_p", plan), fxAsk(t, "toolu_q", fxObj{"question": q, "options": []fxObj{{"label": "A"}}}))
	msgs, _ := f.Messages(0, 0, 0)
	if len(msgs) != 2 || msgs[0].Dialog.Plan != plan || msgs[1].Dialog.Questions[0].Question != q {
		t.Fatalf("plan or question cut: got %d messages", len(msgs))
	}
	if d := f.PendingDialog(); d == nil || d.Plan != plan {
		t.Errorf("pending plan cut or missing")
	}
	if !bytes.Contains([]byte(msgs[0].Dialog.Plan), []byte("long enough")) {
		t.Error("plan lost its text")
	}
}
