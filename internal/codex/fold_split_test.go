package codex

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"lab/internal/foldkit/foldtest"
)

// TestFoldIncrementalEqualsWhole checks that a fold fed in pieces equals
// the fold of the whole, for every split point of every fixture (see
// foldtest.Harness.IncrementalEqualsWhole).
func TestFoldIncrementalEqualsWhole(t *testing.T) {
	for _, fx := range foldFixtures(t) {
		t.Run(fx.Name, func(t *testing.T) {
			foldHarness.IncrementalEqualsWhole(t, foldtest.ReadFixture(t, fx.Path))
		})
	}
}

// cloneFold deep-copies a fold's state (test-only), its held line into
// buf's storage (see foldkit.Input.Clone).
func cloneFold(f *Fold, buf []byte) *Fold {
	c := *f
	c.Input = f.Input.Clone(buf)
	c.Stream = f.Stream.Clone()
	c.qids = maps.Clone(f.qids)
	c.ln, c.it = rolloutLine{}, payloadItem{}
	return &c
}

// TestFoldSeqsStableUnderAppend checks the reparse-stability promise:
// messages already served change only as back-patches (a tool got its
// output, a dialog its outcome).
func TestFoldSeqsStableUnderAppend(t *testing.T) {
	for _, fx := range foldFixtures(t) {
		t.Run(fx.Name, func(t *testing.T) {
			foldHarness.SeqsStableUnderAppend(t, foldtest.ReadFixture(t, fx.Path))
		})
	}
}

// TestFoldReadFromEqualsWrite: ReadFrom, which reads straight onto a held
// line, folds exactly like Write, on the fixtures and on lines longer than
// a read (a command output of ~1 MB twice, a 600 KB world state).
func TestFoldReadFromEqualsWrite(t *testing.T) {
	big := strings.Repeat("0123456789\tabcdef \"q\"\n", 40000) // ~1 MB, longer than a read
	bigJSON, _ := json.Marshal(big)
	extra := []byte(`{"timestamp":"2026-12-01T10:00:00Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","call_id":"big","arguments":"{\"cmd\":\"cat big\"}"}}` + "\n" +
		`{"timestamp":"2026-12-01T10:00:01Z","ordinal":2,"type":"event_msg","payload":{"type":"item_completed","item":{"aggregated_output":` + string(bigJSON) + `}}}` + "\n" +
		`{"timestamp":"2026-12-01T10:00:02Z","ordinal":3,"type":"response_item","payload":{"type":"function_call_output","call_id":"big","output":` + string(bigJSON) + `}}` + "\n" +
		`{"timestamp":"2026-12-01T10:00:03Z","ordinal":4,"type":"world_state","payload":{"blob":"` + strings.Repeat("z", 600000) + `"}}` + "\n" +
		`{"timestamp":"2026-12-01T10:00:04Z","ordinal":5,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"after the big lines"}]}}` + "\n")
	inputs := map[string][]byte{"big-lines": extra}
	for _, fx := range foldFixtures(t) {
		inputs[fx.Name] = foldtest.ReadFixture(t, fx.Path)
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) { foldHarness.ReadFromEqualsWrite(t, data) })
	}
}

// TestFoldReadFromError returns a read error with the bytes read so far
// folded.
func TestFoldReadFromError(t *testing.T) {
	foldHarness.ReadFromError(t, fxUser(t, "kept", nil))
}
