package clikit

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestResolveBin(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "somecli")
	os.WriteFile(exe, []byte("#!/bin/sh\necho '9.8.7'\n"), 0o755)
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("x"), 0o644)
	if got, err := ResolveBin(exe, "somecli", "install it"); err != nil || got != exe {
		t.Fatalf("got %q, %v; want %q", got, err, exe)
	}
	for _, bad := range []string{filepath.Join(dir, "missing"), plain, dir, "no-such-cli-binary-anywhere"} {
		if _, err := ResolveBin(bad, "somecli", "install it"); err == nil || !strings.HasSuffix(err.Error(), "; install it") {
			t.Errorf("ResolveBin(%q) = %v; want an error that says how to install", bad, err)
		}
	}
	t.Setenv("PATH", dir)
	for _, bin := range []string{"somecli", ""} {
		if got, err := ResolveBin(bin, "somecli", "install it"); err != nil || got != exe {
			t.Fatalf("PATH lookup of %q got %q, %v; want %q", bin, got, err, exe)
		}
	}
}

var testVersionRE = regexp.MustCompile(`\b(\d+\.\d+\.\d+)\b`)

func testParse(bin string, out []byte) (string, error) {
	m := testVersionRE.FindSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("%s printed no version", bin)
	}
	return string(m[1]), nil
}

// The probe runs the binary once per file, in an empty home of its own.
func TestVersionProbe(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "somecli")
	counter := filepath.Join(dir, "count")
	os.WriteFile(exe, []byte("#!/bin/sh\necho \"x $EXTRA\" >> '"+counter+"'\nls -A \"$SOME_HOME\" >> '"+counter+"'\necho 'somecli 9.8.7'\n"), 0o755)
	p := &VersionProbe{Home: "SOME_HOME", Env: []string{"EXTRA=extra"}, Parse: testParse}
	for range 3 {
		v, err := p.Version(t.Context(), exe)
		if err != nil || v != "9.8.7" {
			t.Fatalf("got %q, %v; want 9.8.7", v, err)
		}
	}
	if b, _ := os.ReadFile(counter); string(b) != "x extra\n" {
		t.Fatalf("the binary left %q; want one run in an empty home", b)
	}
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte("#!/bin/sh\necho nothing here\n"), 0o755)
	if _, err := p.Version(t.Context(), bad); err == nil || !strings.Contains(err.Error(), "printed no version") {
		t.Fatalf("got %v for output without a version; want Parse's error", err)
	}
	failing := filepath.Join(dir, "failing")
	os.WriteFile(failing, []byte("#!/bin/sh\nexit 3\n"), 0o755)
	if _, err := p.Version(t.Context(), failing); err == nil || !strings.Contains(err.Error(), failing+" --version") {
		t.Fatalf("got %v for a failing binary; want an error naming it", err)
	}
}

func TestFlags(t *testing.T) {
	argv := Flag([]string{"cli"}, "--model", "m")
	argv = Flag(argv, "--resume", "")
	argv = PromptArg(argv, "-starts with a dash")
	if got, want := strings.Join(argv, "|"), "cli|--model|m|--|-starts with a dash"; got != want {
		t.Fatalf("got %q; want %q (unset flags left out, the prompt after --)", got, want)
	}
	if got := PromptArg([]string{"cli"}, ""); len(got) != 1 {
		t.Fatalf("got %q for no prompt; want no --", got)
	}
}
