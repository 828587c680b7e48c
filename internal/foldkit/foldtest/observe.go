package foldtest

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"lab/internal/agent"
	"lab/internal/conv"
)

// Fold is what the shared tests drive: an adapter's *Fold, which embeds
// foldkit's Input and Stream.
type Fold interface {
	agent.Fold
	io.ReaderFrom
	// Held is foldkit.Input's: the held line's length and buffer size.
	Held() (n, capacity int)
}

// Snapshot is what `lab fold` prints; goldens hold it.
type Snapshot struct {
	State         conv.State     `json:"state"`
	PendingDialog *conv.Dialog   `json:"pending_dialog"`
	Messages      []conv.Message `json:"messages"`
	SkippedLines  int            `json:"skipped_lines"`
}

// SnapshotOf takes f's snapshot.
func SnapshotOf(f agent.Fold) Snapshot {
	msgs, _ := f.Messages(0, 0, 0)
	return Snapshot{State: f.State(), PendingDialog: f.PendingDialog(), Messages: msgs, SkippedLines: f.SkippedLines()}
}

// SnapshotJSON encodes like `lab fold` does.
func SnapshotJSON(t testing.TB, s Snapshot) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Observed is everything observable about a fold from outside, for
// comparing two.
type Observed struct {
	Snap                Snapshot
	Session             string
	Len, Lines, Skipped int
	Bytes               int64
}

// Observe takes what f shows.
func Observe(f agent.Fold) Observed {
	return Observed{SnapshotOf(f), f.SessionID(), f.Len(), f.Lines(), f.SkippedLines(), f.Bytes()}
}

// DiffObserved explains how got differs from want, or returns "".
func DiffObserved(got, want Observed) string {
	if reflect.DeepEqual(got, want) {
		return ""
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	return FirstDiff(strings.ReplaceAll(string(g), ",", ",\n"), strings.ReplaceAll(string(w), ",", ",\n"))
}

// FirstDiff shows the first differing line of two texts.
func FirstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + gl + "\n want " + wl
		}
	}
	return "(no line differs)"
}
