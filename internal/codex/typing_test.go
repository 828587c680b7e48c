package codex

import (
	"strings"
	"testing"

	"lab/internal/conv"
)

// The Codex CLI 0.171.0 records every visible and invisible character as
// typed; only characters its box cannot show are refused.
func TestTypable(t *testing.T) {
	d := driver{}
	for _, text := range []string{
		"ok 👍🏽", "cafe\u0301", "a\u200bb", "a\u202eb\u202c", "\ufeffhi", "hy\u00adphen",
		"a\u2028b", "a\ue000b", "辻\U000e0100", "a\U000e0068b", "👨\u200d👩\u200d👧",
	} {
		if got, err := d.Typable(text); err != nil || got != text {
			t.Errorf("Typable(%+q) = %+q, %v; want it as typed", text, got, err)
		}
	}
	for text, name := range map[string]string{
		"a\ufff9b":   "U+FFF9 INTERLINEAR ANNOTATION ANCHOR",
		"a\ufdd0b":   "U+FDD0",
		"a\u0378b c": "U+0378",
	} {
		_, err := d.Typable(text)
		if conv.KindOf(err) != conv.EInvalid || !strings.Contains(err.Error(), name) {
			t.Errorf("Typable(%+q) = %v; want invalid naming %s", text, err, name)
		}
	}
}
