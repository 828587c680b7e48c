package claude

import (
	"strings"
	"testing"

	"lab/internal/conv"
)

// The character classes Claude Code 2.1.328/2.1.332 was seen to take or
// drop (TestE2EReplyCharacterClasses checks them on the real CLI).
var typingCases = []struct {
	name, text, want string // want: the text to paste; "" when refused
	refused          []string
}{
	{"skin tone", "ok 👍🏽", "ok 👍🏽", nil},
	{"zwj family", "👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧", nil},
	{"zwj with modifier", "🧑🏿\u200d💻 done", "🧑🏿\u200d💻 done", nil},
	{"emoji selector", "❤️ and ☺︎", "❤️ and ☺︎", nil},
	{"keycap", "#️⃣ 1️⃣", "#️⃣ 1️⃣", nil},
	{"flags", "🇫🇷 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "🇫🇷 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", nil},
	{"combining accent", "cafe\u0301", "café", nil},
	{"hangul jamo", "\u1100\u1161\u11a8", "각", nil},
	{"line separator", "a\u2028b\u2029c", "a\nb\nc", nil},
	{"cjk and rtl", "你好 مرحبا שלום", "你好 مرحبا שלום", nil},
	{"persian zwnj", "می\u200cخواهم", "می\u200cخواهم", nil},
	{"devanagari zwj", "क्\u200dष", "क्\u200dष", nil},
	{"nbsp and ideographic space", "a\u00a0b\u3000c", "a\u00a0b\u3000c", nil},
	{"private use", "a\ue000b", "a\ue000b", nil},
	{"right-to-left override", "a\u202eb", "", []string{"U+202E RIGHT-TO-LEFT OVERRIDE"}},
	{"isolates", "\u2066x\u2069", "", []string{"U+2066 LEFT-TO-RIGHT ISOLATE", "U+2069 POP DIRECTIONAL ISOLATE"}},
	{"marks", "a\u200eb\u200fc\u061c", "", []string{"U+200E LEFT-TO-RIGHT MARK", "U+200F RIGHT-TO-LEFT MARK", "U+061C ARABIC LETTER MARK"}},
	{"zero width space", "a\u200bb", "", []string{"U+200B ZERO WIDTH SPACE"}},
	{"byte order mark", "\ufeffhi", "", []string{"U+FEFF ZERO WIDTH NO-BREAK SPACE"}},
	{"soft hyphen", "hy\u00adphen", "", []string{"U+00AD SOFT HYPHEN"}},
	{"word joiner", "a\u2060b", "", []string{"U+2060 WORD JOINER"}},
	{"latin zwnj", "a\u200cb", "", []string{"U+200C ZERO WIDTH NON-JOINER"}},
	{"thai zwj", "ก\u200dข", "", []string{"U+200D ZERO WIDTH JOINER"}},
	{"trailing zwj after emoji", "👍🏽\u200d end", "", []string{"U+200D ZERO WIDTH JOINER"}},
	{"stray selector", "a\ufe0fb ✓\ufe0f", "", []string{"U+FE0F VARIATION SELECTOR-16"}},
	{"ideographic selector", "辻\U000e0100", "", []string{"U+E0100 VARIATION SELECTOR-17"}},
	{"tags alone", "a\U000e0068\U000e0069b", "", []string{"U+E0068 TAG LATIN SMALL LETTER H", "U+E0069 TAG LATIN SMALL LETTER I"}},
	{"unknown tag flag", "🏴\U000e0061\U000e0062\U000e007f", "", []string{"U+E0061 TAG LATIN SMALL LETTER A"}},
	{"hangul filler", "\u3164x", "", []string{"U+3164 HANGUL FILLER"}},
	{"grapheme joiner", "a\u034fb", "", []string{"U+034F COMBINING GRAPHEME JOINER"}},
	{"annotation", "a\ufff9b", "", []string{"U+FFF9 INTERLINEAR ANNOTATION ANCHOR"}},
}

func TestTypable(t *testing.T) {
	d := driver{}
	for _, c := range typingCases {
		got, err := d.Typable(c.text)
		if c.refused == nil {
			if err != nil || got != c.want {
				t.Errorf("%s: Typable(%+q) = %+q, %v; want %+q", c.name, c.text, got, err, c.want)
			}
			continue
		}
		if conv.KindOf(err) != conv.EInvalid {
			t.Errorf("%s: Typable(%+q) = %v; want invalid", c.name, c.text, err)
			continue
		}
		for _, n := range c.refused {
			if !strings.Contains(err.Error(), n) {
				t.Errorf("%s: %q does not name %s", c.name, err, n)
			}
		}
	}
}
