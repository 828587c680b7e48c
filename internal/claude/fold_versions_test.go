package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"lab/internal/conv"
	"lab/internal/foldkit/foldtest"
)

// volatileRE matches what differs between two captures of the same
// conversation: ids, times, plan file slugs.
var volatileRE = regexp.MustCompile(`\b(?:toolu|msg)_[A-Za-z0-9]+\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|plans/[A-Za-z0-9-]+\.md`)

// foldShape is what a conversation folds to, minus what varies between
// captures: the kind, role and content of each message with ids blanked,
// and no seqs, times, hashes or output sizes.
func foldShape(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := foldAll(b)
	msgs, _ := f.Messages(0, 0, 0)
	shape := []string{"state " + string(f.State()), "pending " + pendingShape(f.PendingDialog()), "skipped " + strconv.Itoa(f.SkippedLines())}
	for _, m := range msgs {
		m.Seq, m.Time, m.ContentHash = 0, time.Time{}, ""
		if m.Tool != nil {
			tc := *m.Tool
			tc.OutputBytes, tc.Output = 0, volatileRE.ReplaceAllString(tc.Output, "…")
			m.Tool = &tc
		}
		if strings.HasPrefix(m.Text, "Streaming slowly:") {
			m.Text = "Streaming slowly: …" // how far it got before Escape is timing
		}
		j, _ := json.Marshal(m)
		shape = append(shape, volatileRE.ReplaceAllString(string(j), "…"))
	}
	return shape
}

func pendingShape(d *conv.Dialog) string {
	if d == nil {
		return "none"
	}
	return string(d.Kind)
}

// TestFoldAgreesAcrossVersions folds every conversation captured on each
// verified version and requires the same chat from all: whatever the
// newer CLI writes differently (rowSource on harness-written user lines,
// echoWireToolInputs and thread on api-request lines, bookkeeping written
// more or less often) changes nothing the operator sees.
func TestFoldAgreesAcrossVersions(t *testing.T) {
	base := fixtureSets[0]
	paths, _ := filepath.Glob(base.path("captured", "*.jsonl"))
	for _, p := range paths {
		if strings.HasSuffix(p, ".hooks.jsonl") {
			continue
		}
		name := filepath.Base(p)
		want := foldShape(t, p)
		for _, set := range fixtureSets[1:] {
			t.Run(set.version+"/"+name, func(t *testing.T) {
				got := foldShape(t, set.path("captured", name))
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s folds differently on %s than on %s:\n%s", name, set.version, base.version, foldtest.FirstDiff(strings.Join(got, "\n"), strings.Join(want, "\n")))
				}
			})
		}
	}
}

// TestFoldNewerTranscriptFields pins the fields that appeared after
// 2.1.328 in the 2.1.332 captures, and that the fold ignores them: the
// same lines without them fold to the same snapshot.
func TestFoldNewerTranscriptFields(t *testing.T) {
	set := fixtureSets[len(fixtureSets)-1]
	cases := []struct {
		file   string
		fields []string // "key" or "key=value"; each must occur in the capture
	}{
		{"interrupted.jsonl", []string{`rowSource=harness`, `echoWireToolInputs`, `thread`}},
		{"single_declined.jsonl", []string{`rowSource=harness`}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			b, err := os.ReadFile(set.path("captured", c.file))
			if err != nil {
				t.Fatal(err)
			}
			var stripped []string
			found := map[string]bool{}
			for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
				var o map[string]json.RawMessage
				if json.Unmarshal([]byte(line), &o) != nil {
					stripped = append(stripped, line)
					continue
				}
				for _, f := range c.fields {
					key, val, _ := strings.Cut(f, "=")
					if raw, ok := o[key]; ok && (val == "" || string(raw) == `"`+val+`"`) {
						found[f] = true
						delete(o, key)
					}
				}
				s, _ := json.Marshal(o)
				stripped = append(stripped, string(s))
			}
			for _, f := range c.fields {
				if !found[f] {
					t.Errorf("the %s capture has no %s: the CLI changed again; update docs/cli-versions.md", set.version, f)
				}
			}
			with := foldtest.SnapshotJSON(t, foldtest.SnapshotOf(foldAll(b)))
			without := foldtest.SnapshotJSON(t, foldtest.SnapshotOf(foldAll([]byte(strings.Join(stripped, "\n")+"\n"))))
			if string(with) != string(without) {
				t.Errorf("the fold reads the newer fields:\n%s", foldtest.FirstDiff(string(with), string(without)))
			}
		})
	}
	// An interrupt marker is a lifecycle note with or without rowSource.
	for _, extra := range []fxObj{nil, {"rowSource": "harness"}} {
		f := fxFold(fxUser(t, []fxObj{fxText("[Request interrupted by user]")}, extra))
		msgs, _ := f.Messages(0, 0, 0)
		if len(msgs) != 1 || msgs[0].Kind != conv.KindLifecycle {
			t.Errorf("interrupt marker with %v folds to %+v; want one lifecycle note", extra, msgs)
		}
	}
}

// On 2.1.332 the api-request-blob of the request that carries a dialog's
// tool_result can be written before the user line that records the
// resolution (never seen on 2.1.328). The blob is bookkeeping: until the user line lands, the
// dialog stays pending, and the outcome comes from the user line only.
func TestFoldRequestBlobBeforeTheResolution(t *testing.T) {
	ask := fxAsk(t, "toolu_q", fxQDB)
	blob := fxLine(t, fxObj{"type": "api-request-blob", "sessionId": "sess-1", "hash": "h",
		"message": fxObj{"role": "user", "content": []fxObj{{"type": "tool_result", "tool_use_id": "toolu_q", "content": "Your questions have been answered."}}}})
	f := fxFold(ask, blob)
	if d := f.PendingDialog(); d == nil || d.ToolID != "toolu_q" || f.Resolved("toolu_q") {
		t.Fatalf("after the blob alone: pending %+v, resolved %v; want toolu_q still pending", d, f.Resolved("toolu_q"))
	}
	f.Write([]byte(fxAnswered(t, "toolu_q", fxObj{"Which database should we use?": "PostgreSQL"})))
	msgs, _ := f.Messages(0, 0, 0)
	var out *conv.Outcome
	for _, m := range msgs {
		if m.Dialog != nil && m.Dialog.ToolID == "toolu_q" {
			out = m.Dialog.Outcome
		}
	}
	if f.PendingDialog() != nil || out == nil || len(out.Results) != 1 || len(out.Results[0].Chosen) != 1 || out.Results[0].Chosen[0] != "PostgreSQL" {
		t.Fatalf("after the user line: pending %+v, outcome %+v; want PostgreSQL recorded", f.PendingDialog(), out)
	}
}
