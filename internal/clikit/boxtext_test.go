package clikit

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// What the input boxes of the real CLIs showed for pasted text (plain
// tmux 3.3a captures, the prompt glyph removed), observed on Claude Code
// 2.1.328/2.1.332 and Codex 0.171.0: BoxShows must accept each.
var observedBoxes = []struct{ cli, want, shown string }{
	{"claude", "ok 👍🏽", "ok 👍"},
	{"claude", "x 🧑🏿\u200d💻 done", "x 🧑 done"},
	{"claude", "a👍🏽b👋🏻c", "a👍b👋c"},
	{"claude", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f tail", "🏴\U000e0067\U000e0062\U000e0073\U000e0063 tail"},
	{"claude", "cafe\u0301", "café"},
	{"claude", "hangul \u1100\u1161\u11a8", "hangul 각"},
	{"claude", "a" + strings.Repeat("\u0301", 12) + "b", "á" + strings.Repeat("\u0301", 9) + "b"},
	{"claude", "\u0915\u094d\u200d\u0937 ksha", "\u0915\u094d\u200d\u0937  ksha"},
	{"claude", "\u0628\u200d \u0628", "\u0628 \u0628"},
	{"claude", "new emoji \U0001fae9", "new emoji"},
	{"claude", "unassigned a\u0378b", "unassigned a b"},
	{"claude", "flag \U0001f1eb x", "flag \U0001f1eb  x"},
	{"claude", "wide " + strings.Repeat("👍🏽 ", 40) + "end", "wide " + strings.Repeat("👍 ", 38) + "👍🏽\n👍 👍 end"},
	{"claude", "w" + strings.Repeat("你好", 70), "w" + strings.Repeat("你好", 29) + "你\n好" + strings.Repeat("你好", 30) + "你\n好" + strings.Repeat("你好", 9)},
	{"codex", "cafe\u0301", "cafe\u0301"},
	{"codex", "a\u200bb \u202eRTL\u202c", "ab RTL"},
	{"codex", "new emoji \U0001fae9 then text", "new emoji o  then text"},
	{"codex", "x \U0001fae9\U0001fae9\U0001fae9 y", "x dex to y"},
	{"codex", "K11 \u0915\u094d\u200d\u0937", "K11 \u0915\u094d\u200d\u0937o"},
	{"codex", "K13 a\u2028b", "K13 abd"},
}

func TestBoxShowsWhatTheCLIsDrew(t *testing.T) {
	for _, c := range observedBoxes {
		if !BoxShows(c.shown, c.want) {
			t.Errorf("%s: BoxShows(%+q, %+q) = false; want true", c.cli, c.shown, c.want)
		}
	}
}

func TestBoxShowsTellsOtherText(t *testing.T) {
	for _, c := range []struct{ shown, want string }{
		{"", "hello"},                         // the paste has not arrived
		{"   \u200b", "hello"},                // nothing visible
		{"hell", "hello"},                     // a paste taken in part
		{"hello world", "hello"},              // more than the paste
		{"1. Yes  2. No", "hello"},            // a picker's text
		{"hallo", "hello"},                    // one letter differs
		{"cafe", "café"},                      // the accent is part of the letter
		{"ok 👍 and more", "ok 👍🏽"},            // an emoji does not hide text after it
		{"x dex to y z", "x 🫩🫩🫩 y"},           // nor does an unknown one, past its cells
		{"hello\nhello", "hello"},             // twice
		{"[Pasted text #1 +3 lines]", "a\nb"}, // placeholders are the adapters' business
	} {
		if BoxShows(c.shown, c.want) {
			t.Errorf("BoxShows(%+q, %+q) = true; want false", c.shown, c.want)
		}
	}
}

func TestClusters(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"ab", []string{"a", "b"}},
		{"e\u0301x", []string{"e\u0301", "x"}},
		{"👍🏽!", []string{"👍🏽", "!"}},
		{"👨\u200d👩\u200d👧 f", []string{"👨\u200d👩\u200d👧", " ", "f"}},
		{"🇫🇷🇩🇪🇫", []string{"🇫🇷", "🇩🇪", "🇫"}},
		{"1\ufe0f\u20e3", []string{"1\ufe0f\u20e3"}},
		{"a\u200db", []string{"a\u200d", "b"}},
		{"a\nb", []string{"a", "\n", "b"}},
	} {
		got := Clusters(c.in)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("Clusters(%+q) = %+q; want %+q", c.in, got, c.want)
		}
	}
}

// draw is one way a terminal was seen to draw text: the model FuzzBoxShows
// checks BoxShows against.
func draw(rng *rand.Rand, want string) string {
	var b strings.Builder
	col := 0
	for _, c := range Clusters(norm.NFC.String(want)) {
		v := visible(c)
		switch {
		case len(v) == 0:
			if rng.IntN(2) == 0 {
				b.WriteString(c) // printed or not
			}
		case fragile(c, v):
			switch rng.IntN(3) {
			case 0:
				b.WriteString(c)
			case 1:
				b.WriteRune(v[0]) // the base alone
			case 2:
				b.WriteString("o "[:rng.IntN(3)%2+1]) // stale cells
			}
		default:
			b.WriteRune(v[0])
			keep := rng.IntN(len(v)) // tmux keeps a prefix of the marks
			for _, m := range v[1 : 1+keep] {
				b.WriteRune(m)
			}
		}
		col++
		if rng.IntN(20) == 0 {
			b.WriteString("\n  ") // wrapped
		}
	}
	return b.String()
}

func FuzzBoxShows(f *testing.F) {
	for _, c := range observedBoxes {
		f.Add(c.want, c.shown, uint64(1))
	}
	f.Add("hello", "hello", uint64(2))
	f.Fuzz(func(t *testing.T, want, shown string, seed uint64) {
		if !utf8.ValidString(want) || !utf8.ValidString(shown) {
			return
		}
		_ = BoxShows(shown, want) // never panics, whatever the capture
		rng := rand.New(rand.NewPCG(seed, 7))
		d := draw(rng, want)
		if len(visible(d)) > 0 && !BoxShows(d, want) {
			t.Fatalf("BoxShows(%+q, %+q) = false for a drawing the model allows", d, want)
		}
		// A plain letter that is not there is told (unless the text has
		// invisible characters, which allow a stale cell or two).
		if extra := d + "Q"; !strings.ContainsRune(want, 'Q') && slack(norm.NFC.String(want)) == 0 && BoxShows(extra, want) && !strings.ContainsFunc(want, func(r rune) bool {
			v := visible(string(r))
			return len(v) > 0 && fragile(string(r), v)
		}) {
			t.Fatalf("BoxShows(%+q, %+q) = true with a letter too many", extra, want)
		}
	})
}
