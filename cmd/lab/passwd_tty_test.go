package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPasswdHelperProcess is not a test: TestPasswdPromptsWithoutEcho runs
// this test binary inside tmux as `lab`, with a real terminal on stdin.
func TestPasswdHelperProcess(t *testing.T) {
	if os.Getenv("LAB_PASSWD_HELPER") != "1" {
		return
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	env := Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
	if err := run(context.Background(), args, env); err != nil {
		fmt.Fprintln(os.Stderr, "lab:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// TestPasswdPromptsWithoutEcho types a password into `lab passwd` on a
// real terminal (tmux on a private socket) and checks it was asked twice,
// never shown, and stored.
func TestPasswdPromptsWithoutEcho(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatalf("tmux is required for this test: %v", err)
	}
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	sock := filepath.Join(dir, "tmux.sock")
	tm := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmux, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %q: %v: %s", args, err, out)
		}
		return string(out)
	}
	const secret = "typed at the prompt"
	script := fmt.Sprintf("env LAB_PASSWD_HELPER=1 LAB_STATE_DIR=%q %q -test.run='^TestPasswdHelperProcess$' -- passwd; echo EXIT=$?; sleep 600",
		state, os.Args[0])
	tm("new-session", "-d", "-s", "pw", "-x", "100", "-y", "20", "sh", "-c", script)
	t.Cleanup(func() { exec.Command(tmux, "-S", sock, "kill-server").Run() })

	waitFor := func(want string) string {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			pane := tm("capture-pane", "-p", "-t", "pw")
			if strings.Contains(pane, want) {
				return pane
			}
			if time.Now().After(deadline) {
				t.Fatalf("pane never showed %q; it shows:\n%s", want, pane)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitFor("New password:")
	tm("send-keys", "-t", "pw", "-l", secret)
	tm("send-keys", "-t", "pw", "Enter")
	waitFor("Again:")
	tm("send-keys", "-t", "pw", "-l", secret)
	tm("send-keys", "-t", "pw", "Enter")
	pane := waitFor("EXIT=")
	if !strings.Contains(pane, "EXIT=0") || !strings.Contains(pane, "password set") {
		t.Fatalf("lab passwd failed:\n%s", pane)
	}
	if strings.Contains(pane, secret) {
		t.Fatalf("the password was echoed:\n%s", pane)
	}
	if err := checkPassword(t, state, secret); err != nil {
		t.Fatalf("typed password: %v", err)
	}
}
