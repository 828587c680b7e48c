package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lab/internal/conv"
)

// checkPassword opens the state directory's database and checks pw.
func checkPassword(t *testing.T, state, pw string) error {
	t.Helper()
	db, err := OpenStore(context.Background(), state)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return db.CheckPassword(context.Background(), pw)
}

func TestPasswdFromStdinAndFile(t *testing.T) {
	e := newTestEnv(t, "stdin password  \r\nsecond line ignored\n")
	if err := e.run("passwd"); err != nil {
		t.Fatalf("passwd from stdin: %v (stderr %s)", err, e.stderr)
	}
	if !strings.Contains(e.stdout.String(), filepath.Join(e.state, "lab.db")) {
		t.Errorf("stdout %q; want it to name the database", e.stdout)
	}
	if info, err := os.Stat(filepath.Join(e.state, "lab.db")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("database mode %v, %v; want 0600", info.Mode().Perm(), err)
	}
	// Trailing spaces are part of the password; the line ending is not.
	if err := checkPassword(t, e.state, "stdin password  "); err != nil {
		t.Fatalf("password from stdin: %v", err)
	}

	// A file replaces it, signs out browser sessions and forgets known
	// devices.
	db, _ := OpenStore(context.Background(), e.state)
	session, _, err := db.CreateLoginSession(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	device, _, err := db.RememberDevice(context.Background(), "")
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "pw")
	os.WriteFile(file, []byte("file password"), 0o600) // no newline at all
	other := filepath.Join(t.TempDir(), "new", "state")
	if err := e.run("passwd", "--state-dir", other, "--password-file", file); err != nil {
		t.Fatalf("passwd --state-dir: %v", err)
	}
	if info, err := os.Stat(other); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("new state dir mode %v, %v; want 0700", info.Mode().Perm(), err)
	}
	if err := checkPassword(t, other, "file password"); err != nil {
		t.Fatalf("--state-dir: %v", err)
	}
	if err := e.run("passwd", "--password-file", file); err != nil {
		t.Fatalf("passwd --password-file: %v", err)
	}
	if err := checkPassword(t, e.state, "file password"); err != nil {
		t.Fatalf("password from file: %v", err)
	}
	if conv.KindOf(checkPassword(t, e.state, "stdin password  ")) != conv.EUnauthorized {
		t.Fatal("the old password still works")
	}
	db, _ = OpenStore(context.Background(), e.state)
	defer db.Close()
	if _, err := db.LoginSession(context.Background(), session); conv.KindOf(err) != conv.EUnauthorized {
		t.Fatalf("browser session after passwd: got %v; want signed out", err)
	}
	if _, err := db.KnownDevice(context.Background(), device); conv.KindOf(err) != conv.EUnauthorized {
		t.Fatalf("known device after passwd: got %v; want forgotten", err)
	}
	if !strings.Contains(e.stdout.String(), "known devices forgotten") {
		t.Errorf("stdout %q; want it to say known devices were forgotten", e.stdout)
	}
}

func TestPasswdRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"empty stdin", "", nil, "first line is empty"},
		{"blank line", "\nreal password\n", nil, "first line is empty"},
		{"too short", "short\n", nil, "at least 8"},
		{"missing file", "", []string{"--password-file", "/nonexistent/pw"}, "password file"},
		{"stray argument", "", []string{"secret"}, "no arguments"},
		{"unknown flag", "", []string{"--pasword-file", "x"}, "flag provided but not defined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEnv(t, tc.stdin)
			err := e.run(append([]string{"passwd"}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v; want an error containing %q", err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(e.state, "lab.db")); err == nil {
				if has := checkPassword(t, e.state, "x"); conv.KindOf(has) != conv.EConflict {
					t.Fatalf("a password was set despite the error")
				}
			}
		})
	}
}

func TestPromptTwice(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answers []string
		want    string
		err     string
	}{
		{"match", []string{"pass word 1", "pass word 1"}, "pass word 1", ""},
		{"differ", []string{"pass word 1", "pass word 2"}, "", "differ"},
		{"empty", []string{""}, "", "no password"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var prompts []string
			got, err := promptTwice(func(p string) (string, error) {
				prompts = append(prompts, p)
				if len(prompts) > len(tc.answers) {
					return "", errors.New("asked too often")
				}
				return tc.answers[len(prompts)-1], nil
			})
			if got != tc.want || (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("got %q, %v after prompts %q; want %q, error %q", got, err, prompts, tc.want, tc.err)
			}
		})
	}
}
