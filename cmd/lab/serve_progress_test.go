package main

import (
	"encoding/json"
	"strings"
	"testing"

	"lab/internal/conv"
)

// TestServeShowsAPIRetriesAsAWarning runs the real CLI against a model
// that answers every request 500. The CLI retries with a countdown that
// only its status line shows (2.1.328: "500 Internal server error ·
// retrying in 6s · attempt 5/10"; the transcript stays silent until the
// last attempt). (529s are retried the same way, but the CLI may give up
// after three with "Repeated 529 Overloaded errors", so they make a poor
// fixture.) So
// lab reads the pane and serves the retry as a warning in the page's
// progress instead of a bare "working". Escape during the retries cancels
// the request without a word in the transcript or the hooks: the CLI puts
// the prompt back into its input box, and the pane look ends the turn.
func TestServeShowsAPIRetriesAsAWarning(t *testing.T) {
	lab := startLab(t)
	var run conv.Run
	if code := lab.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: t.TempDir(), Prompt: "lab:apierror hello"}, &run); code != 201 {
		t.Fatalf("start: %d\n%s", code, lab.log)
	}
	p := lab.waitPage(run.ID, "a retry warning", func(p conv.Page) bool {
		return p.Progress != nil && p.Progress.Warning != nil
	})
	w := p.Progress.Warning
	if p.State != conv.StateWorking || w.Level != conv.LevelWarning || !strings.Contains(w.Text, "500 Internal server error") ||
		!strings.Contains(w.Text, "retrying in") || !strings.Contains(w.Text, "attempt") {
		t.Fatalf("state %s warning %+v; want working with the CLI's retry line", p.State, w)
	}
	if p.Progress.Since.IsZero() || p.Progress.Tool != nil {
		t.Fatalf("progress %+v; want a start time and no tool", p.Progress)
	}
	var runs struct{ Runs []conv.Run }
	lab.call("GET", "/api/v1/runs", nil, &runs)
	if len(runs.Runs) != 1 || runs.Runs[0].Attention != conv.AttentionWorking || runs.Runs[0].Preview != "You: lab:apierror hello" {
		t.Fatalf("runs: %+v", runs.Runs)
	}

	if code := lab.call("POST", "/api/v1/runs/"+run.ID+"/interrupt", nil, nil); code != 204 {
		t.Fatalf("interrupt: %d", code)
	}
	var last conv.Page
	defer func() {
		if t.Failed() {
			b, _ := json.MarshalIndent(last, "", " ")
			t.Logf("last page: %s", b)
		}
	}()
	// The CLI goes back to its input box (the prompt put back in it) and
	// lab's pane look reads that as the turn over: no endless working.
	lab.waitPage(run.ID, "the turn over", func(p conv.Page) bool {
		last = p
		return p.State == conv.StateNeedsInput && p.Progress == nil
	})
}
