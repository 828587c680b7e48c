package agent

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// What one CLI calls things must stay behind the seam: the domain types
// (internal/conv) and the web app (web/src) name no provider, no tool of
// one CLI, no field of its files or hooks. The server sends what a client
// needs in neutral terms (roles, kinds, labels read off the CLI's screen),
// and provider ids travel only as data.

// vendorWords are names of CLIs and their makers, matched as words in any
// case, anywhere (code, strings, comments).
var vendorWords = []string{"claude", "codex", "anthropic", "openai", "rollout", "rollouts", "ultraplan"}

// nativeNames are names of one CLI's tools, hook events and file fields,
// distinctive enough to match as words anywhere (case-sensitive).
var nativeNames = []string{
	// Claude Code tools and transcript fields.
	"AskUserQuestion", "ExitPlanMode", "EnterPlanMode", "TodoWrite", "MultiEdit", "NotebookEdit",
	"WebFetch", "WebSearch", "toolUseResult", "toolDenialKind", "tool_use", "tool_result", "tool_use_id",
	"parentUuid", "isSidechain", "permission_prompt",
	// Hook events (both CLIs).
	"PreToolUse", "PostToolUse", "PermissionRequest", "UserPromptSubmit", "SessionStart",
	// Codex tools and rollout fields.
	"exec_command", "apply_patch", "request_user_input", "update_plan", "write_stdin", "local_shell",
	"web_search", "session_meta", "response_item", "event_msg", "turn_context", "function_call",
	"function_call_output", "custom_tool_call", "proposed_plan", "CODEX_HOME", "collaboration_mode",
}

// commonToolNames are tool names that are also English words: they may
// appear as words ("Edit" on a button), never as a string of their own,
// the shape code that branches on a tool name takes ("Bash").
var commonToolNames = []string{"Bash", "Write", "Edit", "Read", "Glob", "Grep", "Task", "LS", "shell"}

// finding is one provider-specific name in a file.
type finding struct {
	file, what string
	line       int
}

var (
	vendorRE = regexp.MustCompile(`(?i)\b(` + strings.Join(vendorWords, "|") + `)\b`)
	nativeRE = regexp.MustCompile(`\b(` + strings.Join(nativeNames, "|") + `)\b`)
	// quotedRE finds a string literal that is exactly a common tool name,
	// in any of TypeScript's quotes.
	quotedRE = regexp.MustCompile("([\"'`])(" + strings.Join(commonToolNames, "|") + ")([\"'`])")
)

// scanText checks text (any language) by the word rules.
func scanText(file, text string, line int) []finding {
	var out []finding
	for i, l := range strings.Split(text, "\n") {
		for _, m := range vendorRE.FindAllString(l, -1) {
			out = append(out, finding{file, "the provider name " + strconv.Quote(m), line + i})
		}
		for _, m := range nativeRE.FindAllString(l, -1) {
			out = append(out, finding{file, "the CLI's own name " + strconv.Quote(m), line + i})
		}
	}
	return out
}

// scanTS checks TypeScript or TSX source: the word rules over all of it,
// and string literals that are a common tool name.
func scanTS(file, src string) []finding {
	out := scanText(file, src, 1)
	for i, l := range strings.Split(src, "\n") {
		for _, m := range quotedRE.FindAllStringSubmatch(l, -1) {
			if m[1] == m[3] {
				out = append(out, finding{file, "the tool name " + m[0], i + 1})
			}
		}
	}
	return out
}

// scanGo checks Go source token by token: the word rules over identifiers,
// strings and comments, and string literals that are a common tool name.
func scanGo(file string, src []byte) []finding {
	var out []finding
	fset := token.NewFileSet()
	f := fset.AddFile(file, -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		line := fset.Position(pos).Line
		switch tok {
		case token.COMMENT, token.IDENT:
			out = append(out, scanText(file, lit, line)...)
		case token.STRING:
			out = append(out, scanText(file, lit, line)...)
			if v, err := strconv.Unquote(lit); err == nil {
				for _, n := range commonToolNames {
					if v == n {
						out = append(out, finding{file, "the tool name " + lit, line})
					}
				}
			}
		}
	}
}

// walk scans every file under root with ext.
func walk(t *testing.T, root string, exts []string, scan func(file string, src []byte) []finding) []finding {
	t.Helper()
	var out []finding
	n := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "node_modules" || d.Name() == "dist" {
				return filepath.SkipDir
			}
			return nil
		}
		for _, e := range exts {
			if strings.HasSuffix(path, e) {
				src, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				n++
				out = append(out, scan(path, src)...)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no %v files under %s", exts, root)
	}
	return out
}

// TestNeutralDomainAndWebApp fails when internal/conv or the web app's
// source (tests included) names a provider, one CLI's tools or its fields.
func TestNeutralDomainAndWebApp(t *testing.T) {
	var found []finding
	found = append(found, walk(t, filepath.Join("..", "conv"), []string{".go"}, scanGo)...)
	found = append(found, walk(t, filepath.Join("..", "..", "web", "src"), []string{".ts", ".tsx", ".css", ".html"}, func(file string, src []byte) []finding {
		return scanTS(file, string(src))
	})...)
	for _, f := range found {
		t.Errorf("%s:%d names %s; provider-specific names stay in the adapters (send the client neutral roles, kinds and labels)", f.file, f.line, f.what)
	}
}

// The checks themselves: they catch what they are for and let plain
// English through.
func TestNeutralityChecks(t *testing.T) {
	for _, c := range []struct {
		name, src string
		ts        bool
		want      int
	}{
		{"a branch on a tool name (TS)", `if (t.name === "Bash") {}`, true, 1},
		{"a branch on a tool name (Go)", "package x\nvar _ = map[string]bool{\"Write\": true}\n", false, 1},
		{"a vendor in a comment (Go)", "package x\n// Claude Code's picker\n", false, 1},
		{"a vendor in UI text", `<p>Codex waits</p>`, true, 1},
		{"a native field", `const r = line.toolUseResult;`, true, 1},
		{"a rollout in any case", `// the Rollout file`, true, 1},
		{"a hook event", "package x\nconst e = \"PreToolUse\"\n", false, 1},
		{"an English button", `<button>Edit</button> <p>Write a reply</p>`, true, 0},
		{"a Go method named like a tool", "package x\nfunc f(h interface{ Write([]byte) }) { h.Write(nil) }\n", false, 0},
		{"a read-only note", `<span>Read-only history.</span>`, true, 0},
		{"neutral words", `"The agent asks for permission"`, true, 0},
	} {
		var got []finding
		if c.ts {
			got = scanTS("x.ts", c.src)
		} else {
			got = scanGo("x.go", []byte(c.src))
		}
		if len(got) != c.want {
			t.Errorf("%s: found %v; want %d", c.name, got, c.want)
		}
	}
}
