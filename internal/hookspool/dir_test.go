package hookspool

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseName(t *testing.T) {
	cases := []struct {
		name  string
		ok    bool
		nanos int64
	}{
		{"Stop.1700000000123456789.42.json", true, 1700000000123456789},
		{"Stop.1700000000N.42.json", true, 1700000000 * 1e9}, // a date without %N
		{"Stop.1700000000123456789.42.tmp", false, 0},
		{".Stop.1.42.json", false, 0},
		{"Stop.x.42.json", false, 0},
		{"Stop.1.2.3.json", false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k, ok := ParseName(c.name)
			if ok != c.ok || (ok && k.Nanos != c.nanos) {
				t.Fatalf("got %+v, %v; want nanos %d, %v", k, ok, c.nanos, c.ok)
			}
		})
	}
}

// Events come in hook start order whatever the directory order, each
// file parsed once; removed and vanished files are forgotten; temp files
// are never events and old ones are swept.
func TestDir(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	parsed := 0
	d := NewDir(dir, func(k Key, raw []byte) string {
		parsed++
		return k.Event + ":" + string(raw)
	})
	write("Stop.300.1.json", "c")
	write("PreToolUse.100.9.json", "a")
	write("PreToolUse.200.1.json", "b")
	write(".Stop.400.1.tmp", "half")
	write("notes.txt", "x")
	if err := d.Load(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.Events(), " "); got != "PreToolUse:a PreToolUse:b Stop:c" {
		t.Fatalf("events %q; want hook start order, no temp or stray files", got)
	}
	d.Load()
	if parsed != 3 {
		t.Fatalf("parsed %d times; want each file once", parsed)
	}
	if err := d.Remove("PreToolUse.100.9.json", "Gone.1.1.json"); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "Stop.300.1.json"))
	d.Load()
	if got := strings.Join(d.Events(), " "); got != "PreToolUse:b" || d.Len() != 1 {
		t.Fatalf("events %q after a removal and a vanished file; want only b", got)
	}
	old := time.Now().Add(-2 * time.Minute)
	os.Chtimes(filepath.Join(dir, ".Stop.400.1.tmp"), old, old)
	write(".Stop.500.1.tmp", "fresh")
	d.SweepTemp(time.Minute)
	if _, err := os.Stat(filepath.Join(dir, ".Stop.400.1.tmp")); !os.IsNotExist(err) {
		t.Error("an old temp file was kept")
	}
	if _, err := os.Stat(filepath.Join(dir, ".Stop.500.1.tmp")); err != nil {
		t.Error("a fresh temp file (a hook still copying) was swept")
	}
	missing := NewDir(filepath.Join(dir, "none"), func(Key, []byte) string { return "" })
	if err := missing.Load(); err != nil || missing.Len() != 0 {
		t.Fatalf("a spool dir not made yet: %v, %d events; want none and no error", err, missing.Len())
	}
}

// Compact keeps exactly the files the state still needs, and sweeps old
// temp files.
func TestDirCompact(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"PreToolUse.100.1.json", "PreToolUse.200.1.json", "Stop.300.1.json", "SessionStart.50.1.json", ".Stop.400.1.tmp"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * time.Minute)
	os.Chtimes(filepath.Join(dir, ".Stop.400.1.tmp"), old, old)
	d := NewDir(dir, func(k Key, _ []byte) string { return k.Name })
	if err := d.Load(); err != nil {
		t.Fatal(err)
	}
	if err := d.Compact(map[string]bool{"PreToolUse.200.1.json": true, "SessionStart.50.1.json": true}, "PreToolUse"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.Events(), " "); got != "SessionStart.50.1.json PreToolUse.200.1.json" {
		t.Errorf("events %q after Compact; want the kept ones", got)
	}
	ents, _ := os.ReadDir(dir)
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	if got := strings.Join(left, " "); got != "PreToolUse.200.1.json SessionStart.50.1.json" {
		t.Errorf("files %q after Compact; want the kept ones", got)
	}
}
