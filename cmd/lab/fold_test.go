package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"lab/internal/claudetest"
)

// foldFixtures pairs each transcript fixture of the folds (Claude Code's
// and Codex's) with the golden output the fold's own tests keep for it.
func foldFixtures(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	type set struct{ glob, golden string }
	sets := []set{
		{"../../internal/claude/testdata/fold/*.jsonl", "../../internal/claude/testdata/fold"},
		{"../../internal/codex/testdata/fold/*.jsonl", "../../internal/codex/testdata/fold"},
		{"../../internal/codex/testdata/captured/*.jsonl", "../../internal/codex/testdata/captured-golden"},
	}
	for _, v := range claudetest.FixtureVersions {
		dir := filepath.Join("..", "..", claudetest.FixtureDir(v))
		sets = append(sets, set{filepath.Join(dir, "captured", "*.jsonl"), filepath.Join(dir, "captured-golden")})
	}
	for _, set := range sets {
		paths, err := filepath.Glob(set.glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if strings.HasSuffix(p, ".hooks.jsonl") {
				continue
			}
			out[p] = filepath.Join(set.golden, strings.TrimSuffix(filepath.Base(p), ".jsonl")+".golden.json")
		}
	}
	if len(out) < 40 {
		t.Fatalf("found %d fold fixtures; want both folds' fixture sets", len(out))
	}
	return out
}

// providerOf names the CLI a fixture comes from, by its folder.
func providerOf(path string) string {
	if strings.Contains(path, "/codex/") {
		return "codex"
	}
	return "claude"
}

func runLab(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }}
	err = run(context.Background(), args, env)
	return o.String(), e.String(), err
}

// TestFoldCommandPrintsTheGolden runs `lab fold FILE` on every fixture and
// requires exactly the golden the fold's tests pin, so the command prints
// the fold and nothing else.
func TestFoldCommandPrintsTheGolden(t *testing.T) {
	for path, golden := range foldFixtures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			got, stderr, err := runLab(t, "fold", "--provider", providerOf(path), path)
			if err != nil {
				t.Fatalf("lab fold %s: %v (stderr %s)", path, err, stderr)
			}
			if got != string(want) {
				t.Errorf("lab fold %s differs from %s", path, golden)
			}
		})
	}
}

// Without --provider the file's first line tells: every transcript and
// rollout the real CLIs wrote folds as its own CLI's.
func TestFoldCommandTellsTheProvider(t *testing.T) {
	n := 0
	for path, golden := range foldFixtures(t) {
		if !strings.Contains(path, "/captured/") {
			continue // hand-written fixtures may start anywhere
		}
		n++
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := runLab(t, "fold", path)
		if err != nil || got != string(want) {
			t.Errorf("lab fold %s (told as %s): %v; differs from %s", path, providerOf(path), err, golden)
		}
	}
	if n < 20 {
		t.Fatalf("checked %d captured files; want both CLIs' captures", n)
	}
	if _, _, err := runLab(t, "fold", "--provider", "gemini", "x.jsonl"); err == nil || !strings.Contains(err.Error(), `unknown provider "gemini"`) {
		t.Errorf("an unknown provider: %v; want it named", err)
	}
}

func TestFoldCommandStats(t *testing.T) {
	for path, golden := range foldFixtures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var g struct {
				Messages     []json.RawMessage `json:"messages"`
				SkippedLines int               `json:"skipped_lines"`
			}
			gb, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(gb, &g); err != nil {
				t.Fatal(err)
			}
			out, stderr, err := runLab(t, "fold", "--stats", "--provider", providerOf(path), path)
			if err != nil {
				t.Fatalf("lab fold --stats: %v (stderr %s)", err, stderr)
			}
			var raw map[string]json.RawMessage
			if err := json.Unmarshal([]byte(out), &raw); err != nil {
				t.Fatalf("stats are not JSON: %v\n%s", err, out)
			}
			keys := make([]string, 0, len(raw))
			for k := range raw {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			if got := strings.Join(keys, ","); got != "bytes,fold_ms,lines,messages,skipped_lines" {
				t.Errorf("stats keys %s; want bytes,fold_ms,lines,messages,skipped_lines", got)
			}
			var s foldStats
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatal(err)
			}
			want := foldStats{Bytes: int64(len(data)), Lines: bytes.Count(data, []byte("\n")), Messages: len(g.Messages), SkippedLines: g.SkippedLines, FoldMS: s.FoldMS}
			if s != want || s.FoldMS < 0 {
				t.Errorf("stats %+v; want %+v", s, want)
			}
		})
	}
}

func TestFoldCommandRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.jsonl")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{"fold", missing}, "cannot open transcript: open " + missing + ": no such file or directory"},
		{"a directory", []string{"fold", dir}, "cannot read transcript " + dir + ": it is a directory"},
		{"no file", []string{"fold"}, "fold takes one transcript file, got 0 arguments"},
		{"two files", []string{"fold", missing, missing}, "fold takes one transcript file, got 2 arguments"},
		{"unknown flag", []string{"fold", "--nope", missing}, "flag provided but not defined: -nope"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := runLab(t, tc.args...)
			if err == nil || err.Error() != tc.want {
				t.Errorf("got error %v; want %q", err, tc.want)
			}
			if out != "" {
				t.Errorf("printed %q on failure; want nothing on stdout", out)
			}
		})
	}
}

// TestFoldCommandExitCode runs the real main in a child process: a missing
// file must exit non-zero with the reason on stderr.
func TestFoldCommandExitCode(t *testing.T) {
	if os.Getenv("LAB_FOLD_CHILD") == "1" {
		os.Args = append([]string{"lab"}, strings.Fields(os.Getenv("LAB_FOLD_ARGS"))...)
		main()
		os.Exit(0)
	}
	missing := filepath.Join(t.TempDir(), "gone.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^TestFoldCommandExitCode$")
	cmd.Env = append(os.Environ(), "LAB_FOLD_CHILD=1", "LAB_FOLD_ARGS=fold "+missing)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("lab fold of a missing file: %v; want exit status 1", err)
	}
	if want := "lab: cannot open transcript: open " + missing + ": no such file or directory"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q; want it to contain %q", stderr.String(), want)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q; want nothing", stdout.String())
	}
}
