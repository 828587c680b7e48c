package foldgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
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
