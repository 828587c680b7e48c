package claude

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"lab/internal/conv"
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
	c.session = slices.Clone(f.session)
	c.ln, c.msg, c.blk = foldLine{}, foldMessage{}, foldBlock{}
	return &c
}

// TestFoldSeqsStableUnderAppend checks the reparse-stability promise:
// messages already served change only as back-patches (here also an
// approved plan learning its approval mode).
func TestFoldSeqsStableUnderAppend(t *testing.T) {
	for _, fx := range foldFixtures(t) {
		t.Run(fx.Name, func(t *testing.T) {
			foldHarness.SeqsStableUnderAppend(t, foldtest.ReadFixture(t, fx.Path))
		})
	}
}

// TestFoldReadFromEqualsWrite: ReadFrom, which reads straight onto a held
// line, folds exactly like Write, on the fixtures and on lines longer than
// a read (a tool result of ~1 MB, a 600 KB request blob).
func TestFoldReadFromEqualsWrite(t *testing.T) {
	big := strings.Repeat("0123456789\tabcdef \"q\"\n", 40000) // ~1 MB, longer than a read
	extra := []byte(fxAssistant(t, "tool_use", fxToolUse("toolu_big", "Bash", fxObj{"command": "cat big"})) +
		fxResult(t, "toolu_big", big, false, fxObj{"toolUseResult": fxObj{"stdout": big}}) +
		`{"type":"api-request-blob","message":"` + strings.Repeat("z", 600000) + `"}` + "\n" +
		fxResult(t, "toolu_big", "late", false, nil) + fxUser(t, "after the big lines", nil))
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

// approvalModeLearned reports whether an approved plan's outcome changed
// only by gaining its approval mode.
func approvalModeLearned(was, now conv.Message) bool {
	w, n := was.Dialog, now.Dialog
	if w == nil || n == nil || w.Outcome == nil || n.Outcome == nil || !w.Outcome.Approved || w.Outcome.ApprovalMode != "" || n.Outcome.ApprovalMode == "" {
		return false
	}
	o := *n.Outcome
	o.ApprovalMode = ""
	return reflect.DeepEqual(&o, w.Outcome)
}
