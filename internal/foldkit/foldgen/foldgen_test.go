package foldgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func TestKeyFirst(t *testing.T) {
	for rest, want := range map[string]string{
		`{"b":1,"a":"x"}`: `{"type":"mode","a":"x","b":1}`,
		`{}`:              `{"type":"mode"}`,
	} {
		var m map[string]any
		json.Unmarshal([]byte(rest), &m)
		got, err := KeyFirst("type", "mode", m)
		if err != nil || string(got) != want {
			t.Errorf("KeyFirst(%s) = %s, %v; want %s", rest, got, err, want)
		}
	}
}

func TestWordsAreSeededJSONText(t *testing.T) {
	vocab := []string{`"q"`, `back\slash`, "tab\there", "日本語"}
	a := Words(rand.New(rand.NewPCG(1, 2)), vocab, 5000)
	b := Words(rand.New(rand.NewPCG(1, 2)), vocab, 5000)
	if a != b || len(a) < 5000 || !strings.Contains(a, "\n") {
		t.Fatalf("got %d bytes, same twice %v; want 5000+ bytes of lines, the same for a seed", len(a), a == b)
	}
	var back string
	if err := json.Unmarshal([]byte(Quote(a)), &back); err != nil || back != a {
		t.Fatalf("the text does not survive JSON: %v", err)
	}
}

type failing struct{ n int }

func (f *failing) Write(p []byte) (int, error) {
	if f.n += len(p); f.n > 10 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestOutCountsAndKeepsTheFirstError(t *testing.T) {
	var buf bytes.Buffer
	o := NewOut(&buf)
	o.JSONLine(map[string]int{"a": 1})
	o.WriteString("x\n")
	if n, err := o.Done(); err != nil || n != int64(buf.Len()) || buf.String() != "{\"a\":1}\nx\n" {
		t.Fatalf("got %d, %v, %q", n, err, buf.String())
	}
	o = NewOut(&failing{})
	o.WriteString(strings.Repeat("y", 2<<20)) // past the buffer: the write fails
	o.JSONLine(1)
	if _, err := o.Done(); err == nil || err.Error() != "disk full" {
		t.Fatalf("got %v; want the first error", err)
	}
}

func TestTurnsEndAtTheFirstBoundaryPastTheSize(t *testing.T) {
	var buf bytes.Buffer
	g := NewGen(&buf, 1, 2, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	var turns []int
	n, err := g.Turns(25, func(i int) {
		turns = append(turns, i)
		g.WriteString("0123456789")
	})
	if err != nil || n != 30 || buf.Len() != 30 || len(turns) != 3 || turns[2] != 2 {
		t.Fatalf("got %d bytes (%d flushed), %v, turns %v; want 30 bytes in turns 0..2", n, buf.Len(), err, turns)
	}
	g = NewGen(&failing{}, 1, 2, time.Time{})
	calls := 0
	if _, err := g.Turns(1<<30, func(int) { calls++; g.Err = errors.New("boom") }); err == nil || calls != 1 {
		t.Fatalf("got %v after %d turns; want the error after one", err, calls)
	}
}

func TestTickAndOutputSize(t *testing.T) {
	g := NewGen(&bytes.Buffer{}, 1, 2, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	a, b := g.Tick(100, 1), g.Tick(100, 1)
	if a != "2026-01-02T03:04:05.100Z" || b != "2026-01-02T03:04:05.200Z" {
		t.Fatalf("ticks %s, %s; want 100 ms apart in the CLIs' stamp", a, b)
	}
	for range 200 {
		if n := g.OutputSize(0); n < 0 || n >= 64<<10 {
			t.Fatalf("OutputSize(0) = %d; want below the 64 KB default", n)
		}
		if n := g.OutputSize(300); n < 0 || n >= 4200 {
			t.Fatalf("OutputSize(300) = %d; want below 4200", n)
		}
	}
}
