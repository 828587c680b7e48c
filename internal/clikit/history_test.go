package clikit

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lab/internal/conv"
)

func TestScanHead(t *testing.T) {
	long := strings.Repeat("x", 100)
	head := "one\r\n\n" + long + "\ntwo\nstop\nafter\n"
	var got []string
	ScanHead(strings.NewReader(head), 50, func(b []byte) bool {
		got = append(got, string(b))
		return string(b) == "stop"
	})
	// Blank and overlong lines are passed over; the scan ends when told.
	if want := []string{"one", "two", "stop"}; !slices.Equal(got, want) {
		t.Errorf("lines %q; want %q", got, want)
	}

	got = nil
	ScanHead(strings.NewReader(strings.Repeat("line\n", 1000)+"unterminated"), 50, func(b []byte) bool {
		got = append(got, string(b))
		return false
	})
	if len(got) != headMaxLines {
		t.Errorf("read %d lines; want the first %d", len(got), headMaxLines)
	}
	got = nil
	ScanHead(strings.NewReader("a\nlast without newline"), 50, func(b []byte) bool {
		got = append(got, string(b))
		return false
	})
	if want := []string{"a", "last without newline"}; !slices.Equal(got, want) {
		t.Errorf("lines %q; want %q", got, want)
	}
	// A head of giant lines stops at the byte limit without keeping them.
	n := 0
	big := strings.Repeat(strings.Repeat("y", 1<<20)+"\n", 10)
	ScanHead(strings.NewReader(big), 2<<20, func(b []byte) bool { n++; return false })
	if n != 4 {
		t.Errorf("read %d lines of 1 MB; want 4 (the head's 4 MB)", n)
	}
}

func TestTitle(t *testing.T) {
	if got := Title("  fix\n\tthe   docs "); got != "fix the docs" {
		t.Errorf("Title = %q", got)
	}
	got := Title(strings.Repeat("é", 300))
	if r := []rune(got); len(r) != titleMaxRunes || r[len(r)-1] != '…' {
		t.Errorf("Title of 300 runes = %d runes ending %q; want %d with an ellipsis", len(r), r[len(r)-1], titleMaxRunes)
	}
}

func TestHeadCache(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("first"), 0o644)
	os.WriteFile(b, []byte("other"), 0o644)
	scans := 0
	scan := func(r io.Reader) string {
		scans++
		s, _ := io.ReadAll(r)
		return string(s)
	}
	var c HeadCache[string]
	get := func(p string) string {
		t.Helper()
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return c.Get(p, info, scan)
	}
	first, again := get(a), get(a)
	if first != "first" || again != "first" || scans != 1 {
		t.Fatalf("got %q, %q after %d scans; want one scan while the file is unchanged", first, again, scans)
	}
	os.WriteFile(a, []byte("second"), 0o644)
	os.Chtimes(a, time.Now(), time.Now().Add(time.Hour))
	if got := get(a); got != "second" || scans != 2 {
		t.Fatalf("got %q after %d scans; want the file read again", got, scans)
	}
	get(b)
	c.Keep(map[string]bool{b: true})
	if get(b); scans != 3 {
		t.Errorf("kept file scanned again (%d scans)", scans)
	}
	if get(a); scans != 4 {
		t.Errorf("forgotten file not scanned again (%d scans)", scans)
	}
	info, _ := os.Stat(a)
	if got := c.Get(filepath.Join(dir, "gone"), info, scan); got != "" || scans != 4 {
		t.Errorf("a file that will not open gave %q", got)
	}
}

func TestSortNewestFirst(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	s := []conv.Session{{ID: "b", ModTime: t0}, {ID: "old", ModTime: t0.Add(-time.Hour)}, {ID: "a", ModTime: t0}, {ID: "new", ModTime: t0.Add(time.Hour)}}
	SortNewestFirst(s)
	var ids []string
	for _, x := range s {
		ids = append(ids, x.ID)
	}
	if want := []string{"new", "a", "b", "old"}; !slices.Equal(ids, want) {
		t.Errorf("order %q; want %q", ids, want)
	}
}
