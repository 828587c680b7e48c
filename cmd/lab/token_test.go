package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lab/internal/conv"
)

func TestTokenLifecycle(t *testing.T) {
	e := newTestEnv(t, "")
	// No database yet: refused, naming the file and the way out, and
	// nothing is created.
	dbFile := filepath.Join(e.state, "lab.db")
	for _, args := range [][]string{{"token", "list"}, {"token", "create", "ci"}, {"token", "revoke", "ci"}} {
		err := e.run(args...)
		if err == nil || !strings.Contains(err.Error(), dbFile) || !strings.Contains(err.Error(), "--create") {
			t.Fatalf("%q without a database: got %v; want an error naming %s and --create", args, err, dbFile)
		}
		if _, err := os.Stat(dbFile); err == nil {
			t.Fatalf("%q created %s", args, dbFile)
		}
	}
	if err := e.run("token", "create", "ci", "--create"); err != nil {
		t.Fatalf("create --create: %v", err)
	}
	if !strings.Contains(e.stderr.String(), "using the database "+dbFile) {
		t.Errorf("stderr %q; want it to name the database", e.stderr)
	}
	secret := strings.TrimSpace(e.stdout.String())
	if !strings.HasPrefix(secret, "lab_") || strings.Contains(secret, "\n") {
		t.Fatalf("create printed %q; want the secret alone", e.stdout)
	}
	if !strings.Contains(e.stderr.String(), "only this once") {
		t.Errorf("stderr %q; want the shown-once warning", e.stderr)
	}
	// The database exists now: no flag needed, and it is named again.
	if err := e.run("token", "list"); err != nil || !strings.Contains(e.stdout.String(), "ci") || !strings.Contains(e.stderr.String(), dbFile) {
		t.Fatalf("list: %v %q %q", err, e.stdout, e.stderr)
	}
	// Flags after the positional arguments work too.
	other := t.TempDir()
	if err := e.run("token", "create", "elsewhere", "--state-dir", other, "--create"); err != nil {
		t.Fatalf("create --state-dir after NAME: %v", err)
	}
	if err := e.run("token", "create", "ci"); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("duplicate: got %v; want already exists", err)
	}
	if err := e.run("token", "create", "bad name"); err == nil {
		t.Fatal("bad name: got nil error")
	}

	db, err := OpenStore(context.Background(), e.state)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tok, err := db.CheckAPIToken(context.Background(), secret)
	if err != nil || tok.Name != "ci" {
		t.Fatalf("printed secret: %+v, %v; want it to authenticate as ci", tok, err)
	}

	if err := e.run("token", "create", "backup"); err != nil {
		t.Fatal(err)
	}
	if err := e.run("token", "list"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(e.stdout.String()), "\n")
	// Both were created within the same second: creation order still holds.
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[1], tok.ID) ||
		!strings.Contains(lines[1], "ci") || strings.Contains(lines[1], "never") || !strings.Contains(lines[2], "never") {
		t.Fatalf("list:\n%s\nwant a header, ci (used) and backup (never used)", e.stdout)
	}
	if strings.Contains(e.stdout.String(), secret) {
		t.Fatal("list shows a secret")
	}

	if err := e.run("token", "revoke", tok.ID); err != nil || !strings.Contains(e.stdout.String(), "revoked token ci") {
		t.Fatalf("revoke by id: %v %q", err, e.stdout)
	}
	if _, err := db.CheckAPIToken(context.Background(), secret); conv.KindOf(err) != conv.EUnauthorized {
		t.Fatalf("revoked secret: got %v; want unauthorized", err)
	}
	if err := e.run("token", "revoke", "backup"); err != nil {
		t.Fatalf("revoke by name: %v", err)
	}
	if err := e.run("token", "revoke", "backup"); err == nil || !strings.Contains(err.Error(), "no token") {
		t.Fatalf("revoke twice: got %v; want no token", err)
	}
}

func TestTokenUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"token"},
		{"token", "delete", "x"},
		{"token", "create"},
		{"token", "create", "a", "b"},
		{"token", "list", "extra"},
		{"token", "revoke"},
	} {
		e := newTestEnv(t, "")
		if err := e.run(args...); err == nil {
			t.Errorf("%q: got nil error; want a usage error", args)
		} else if !strings.Contains(e.stderr.String(), "usage:") {
			t.Errorf("%q: stderr %q; want the usage", args, e.stderr)
		}
	}
}
