package store

import (
	"context"
	"path/filepath"
	"testing"
)

func TestOpenMigratesOnceAndReopens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lab.db")
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var applied int
	if err := db.SQL().QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&applied); err != nil {
		t.Fatal(err)
	}
	if applied == 0 {
		t.Fatalf("got %d migrations applied; want at least 1", applied)
	}
	var mode string
	if err := db.SQL().QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("got journal_mode %q (%v); want wal", mode, err)
	}
	db.Close()
	db, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer db.Close()
	var again int
	db.SQL().QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&again)
	if again != applied {
		t.Fatalf("got %d migrations after reopen; want %d", again, applied)
	}
}
