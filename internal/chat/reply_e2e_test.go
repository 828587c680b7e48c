package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"lab/internal/agent"
	"lab/internal/codex"
	"lab/internal/codextest"
	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
	"lab/internal/fakecodexapi"
)

// Replies with every kind of character a phone keyboard produces, on the
// real CLIs: each lands exactly as Driver.Typable prepared it, or is
// refused before any key naming the character, and the input box is empty
// after every reply, failed ones included.

// replyCLI is one real CLI in tmux, driven by a fresh Actor per reply.
type replyCLI struct {
	t       *testing.T
	target  string
	pane    *faultPane
	drv     agent.Driver
	prompts func() []string // the typed prompts recorded so far
	journal string
}

// faultPane counts what it sends and can spoil it: a paste the box draws
// otherwise, or a key that never arrives.
type faultPane struct {
	TmuxPane
	mu     sync.Mutex
	sent   []string
	mangle func(string) string
	lose   string
}

func (p *faultPane) SendKeys(ctx context.Context, keys ...string) error {
	for _, key := range keys {
		p.mu.Lock()
		p.sent = append(p.sent, key)
		lose := p.lose == key
		p.mu.Unlock()
		if lose {
			continue
		}
		if err := p.TmuxPane.SendKeys(ctx, key); err != nil {
			return err
		}
	}
	return nil
}

func (p *faultPane) Paste(ctx context.Context, text string) error {
	p.mu.Lock()
	p.sent = append(p.sent, "paste")
	if p.mangle != nil {
		text = p.mangle(text)
	}
	p.mu.Unlock()
	return p.TmuxPane.Paste(ctx, text)
}

func (p *faultPane) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.sent)
}

func (p *faultPane) spoil(mangle func(string) string, lose string) {
	p.mu.Lock()
	p.mangle, p.lose = mangle, lose
	p.mu.Unlock()
}

func claudeReplyCLI(t *testing.T) *replyCLI {
	r := startRun(t, "", "", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
	path := r.transcriptPath()
	c := &replyCLI{t: t, target: r.target, drv: r.actor.drv,
		pane:    &faultPane{TmuxPane: r.pane.TmuxPane},
		prompts: func() []string { return typedPrompts(t, path) },
		journal: filepath.Join(t.TempDir(), "reply-in-prompt.json"),
	}
	c.waitEmpty()
	return c
}

func codexReplyCLI(t *testing.T) *replyCLI {
	rig := codextest.NewRig(t, fakecodexapi.Options{})
	rig.Spawn("run", codex.SpawnOptions{})
	c := &replyCLI{t: t, target: "run", drv: codexDriver(),
		pane: &faultPane{TmuxPane: TmuxPane{Server: rig.Tmux, Target: "run"}},
		prompts: func() []string {
			var out []string
			for _, f := range rig.Sessions() {
				out = append(out, rolloutPrompts(t, f)...)
			}
			return out
		},
		journal: filepath.Join(t.TempDir(), "reply-in-prompt.json"),
	}
	c.waitEmpty()
	return c
}

// rolloutPrompts returns the user messages of a Codex rollout.
func rolloutPrompts(t testing.TB, path string) []string {
	var out []string
	for _, m := range transcriptLines(t, path) {
		if string(m["type"]) != `"response_item"` {
			continue
		}
		var p struct {
			Type, Role string
			Content    []struct{ Type, Text string }
		}
		json.Unmarshal(m["payload"], &p)
		if p.Type != "message" || p.Role != "user" {
			continue
		}
		for _, b := range p.Content {
			if b.Type == "input_text" {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

func (c *replyCLI) actor() *Actor {
	opts := e2eOpts(DefaultKeyDelay)
	opts.Journal = c.journal
	return NewActor(c.pane, c.drv, func(context.Context) (*conv.Dialog, error) { return nil, nil }, nil, opts)
}

func (c *replyCLI) capture() string {
	s, _ := c.pane.Capture(context.Background())
	return s
}

// waitEmpty waits for an empty input box; with idle, also for the turn a
// reply started to end (so the next reply is not queued into it).
func (c *replyCLI) waitEmpty(idle ...bool) {
	c.t.Helper()
	var last string
	ok := pollFor(60*time.Second, func() bool {
		last = c.capture()
		box, ok := c.drv.Prompt(last)
		return ok && box.Empty() && (len(idle) == 0 || c.drv.Look(last).Kind == agent.LookPrompt)
	})
	if !ok {
		c.t.Fatalf("the input box is not empty (or the CLI not idle); pane:\n%s", last)
	}
}

// landed waits for a typed prompt starting with tag and returns it.
func (c *replyCLI) landed(tag string) (string, bool) { return c.landedWithin(tag, 60*time.Second) }

func pollFor(timeout time.Duration, ok func() bool) bool {
	deadline := time.Now().Add(timeout)
	for !ok() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// reply sends tag+text through a fresh actor and checks the outcome: a
// refusal sent nothing and names each character Typable names; anything
// accepted lands exactly as prepared; the box is empty afterwards.
func (c *replyCLI) reply(tag, text string) error {
	c.t.Helper()
	text = tag + text
	prepared, typErr := c.drv.Typable(text)
	before := c.pane.count()
	err := c.actor().Reply(context.Background(), text)
	switch {
	case typErr != nil:
		if conv.KindOf(err) != conv.EInvalid || err.Error() != typErr.Error() {
			c.t.Errorf("Reply(%+q) = %v; want the refusal %q", text, err, typErr)
		}
		if !strings.Contains(err.Error(), "U+") {
			c.t.Errorf("refusal %q names no character", err)
		}
		if n := c.pane.count(); n != before {
			c.t.Errorf("Reply(%+q) was refused after %d keys; want none", text, n-before)
		}
	case err != nil:
		c.t.Errorf("Reply(%+q) = %v; pane:\n%s", text, err, c.capture())
	default:
		got, ok := c.landed(tag)
		if !ok {
			c.t.Fatalf("Reply(%+q) never reached the transcript; pane:\n%s", text, c.capture())
		}
		if got != prepared {
			c.t.Errorf("Reply(%+q) recorded %+q; want %+q", text, got, prepared)
		}
		c.waitEmpty(true)
		return nil
	}
	c.waitEmpty()
	return err
}

// replyClasses are the kinds of characters of issue 21, and their kin.
var replyClasses = []struct{ name, text string }{
	{"skin tone", "ok 👍🏽"},
	{"zwj with modifier", "🧑🏿\u200d💻 done"},
	{"zwj family", "👨\u200d👩\u200d👧 fam"},
	{"flags and keycap", "🇫🇷 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f #️⃣ ❤️"},
	{"unknown to the terminal", "new \U0001fae9 emoji"},
	{"combining accent", "cafe\u0301"},
	{"many marks", "a" + strings.Repeat("\u0301", 12) + "b"},
	{"hangul jamo", "\u1100\u1161\u11a8"},
	{"cjk wide", "你好世界 " + strings.Repeat("漢字", 70)},
	{"rtl scripts", "مرحبا שלום"},
	{"persian zwnj", "می\u200cخواهم"},
	{"devanagari zwj", "क्\u200dष"},
	{"spaces", "a\u00a0b\u3000c"},
	{"line separator", "a\u2028b"},
	{"zero width space", "a\u200bb"},
	{"byte order mark", "c\ufeffd"},
	{"soft hyphen", "e\u00adf"},
	{"right-to-left override", "g\u202eRTL\u202ch"},
	{"isolate", "\u2066x\u2069"},
	{"latin zwnj", "a\u200cb"},
	{"stray selector", "a\ufe0fb"},
	{"tags", "a\U000e0068\U000e0069b"},
	{"annotation", "a\ufff9b"},
}

func testReplyClasses(t *testing.T, c *replyCLI) {
	for i, rc := range replyClasses {
		c.reply(fmt.Sprintf("K%02d ", i), rc.text)
	}
}

func TestE2EReplyCharacterClasses(t *testing.T) {
	t.Parallel()
	testReplyClasses(t, claudeReplyCLI(t))
}

func TestE2ECodexReplyCharacterClasses(t *testing.T) {
	t.Parallel()
	testReplyClasses(t, codexReplyCLI(t))
}

// TestE2EReplyRefusalsAreNeeded pins why lab refuses what it refuses for
// Claude Code: pasted past lab, those characters do not reach the
// transcript as typed.
func TestE2EReplyRefusalsAreNeeded(t *testing.T) {
	t.Parallel()
	c := claudeReplyCLI(t)
	for i, rc := range replyClasses {
		text := fmt.Sprintf("D%02d %s", i, rc.text)
		if _, err := c.drv.Typable(text); err == nil {
			continue
		}
		c.pane.TmuxPane.Paste(context.Background(), text)
		time.Sleep(time.Second) // let the paste settle; then submit, twice if the first is lost
		var got string
		for try := 0; try < 2 && got == ""; try++ {
			c.pane.TmuxPane.SendKeys(context.Background(), "Enter")
			got, _ = c.landedWithin(fmt.Sprintf("D%02d ", i), 10*time.Second)
		}
		if got == text {
			t.Errorf("%s: the CLI recorded %+q as typed; lab need not refuse it", rc.name, text)
		}
		c.waitEmpty()
	}
}

func (c *replyCLI) landedWithin(tag string, d time.Duration) (string, bool) {
	var got string
	ok := pollFor(d, func() bool {
		for _, p := range c.prompts() {
			if strings.HasPrefix(p, tag) {
				got = p
				return true
			}
		}
		return false
	})
	return got, ok
}

func testReplyWithdrawn(t *testing.T, c *replyCLI) {
	// A paste the box draws otherwise is removed again, nothing submitted.
	c.pane.spoil(func(s string) string { return s + " and more\nlines" }, "")
	err := c.actor().Reply(context.Background(), "W1 spoiled paste")
	if conv.KindOf(err) != conv.EConflict || !strings.Contains(err.Error(), "lab removed it from the prompt") {
		t.Fatalf("got %v; want a conflict saying lab removed the reply", err)
	}
	c.waitEmpty()
	// An Enter that never arrives: the reply is removed again too.
	c.pane.spoil(nil, "Enter")
	err = c.actor().Reply(context.Background(), "W2 lost enter")
	if conv.KindOf(err) != conv.EConflict || !strings.Contains(err.Error(), "lab removed it from the prompt") {
		t.Fatalf("got %v; want a conflict saying lab removed the reply", err)
	}
	c.waitEmpty()
	// The next reply lands, and neither spoiled one ever did.
	c.pane.spoil(nil, "")
	c.reply("W3 ", "the next reply 👍🏽")
	for _, p := range c.prompts() {
		if strings.HasPrefix(p, "W1") || strings.HasPrefix(p, "W2") {
			t.Errorf("a withdrawn reply was submitted: %q", p)
		}
	}
	// A reply an earlier lab left in the box (lab stopped mid-reply) is
	// removed by the next; text typed at the terminal is not.
	left := "W4 left by an earlier lab 🧑🏿\u200d💻"
	if err := os.WriteFile(c.journal, []byte(`{"text":`+strconv.Quote(left)+`}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c.pane.TmuxPane.Paste(context.Background(), left)
	if !pollFor(10*time.Second, func() bool { b, ok := c.drv.Prompt(c.capture()); return ok && b.Holds(left) }) {
		t.Fatalf("the left reply does not show; pane:\n%s", c.capture())
	}
	c.reply("W5 ", "after the leftover")
	os.Remove(c.journal)
	c.pane.TmuxPane.Paste(context.Background(), "typed at the terminal")
	pollFor(10*time.Second, func() bool { b, ok := c.drv.Prompt(c.capture()); return ok && !b.Empty() })
	err = c.actor().Reply(context.Background(), "W6 refused")
	if conv.KindOf(err) != conv.EConflict || !strings.Contains(err.Error(), "lab did not type") {
		t.Fatalf("got %v; want a conflict naming text lab did not type", err)
	}
	if b, ok := c.drv.Prompt(c.capture()); !ok || !b.Holds("typed at the terminal") {
		t.Errorf("the operator's text was touched; pane:\n%s", c.capture())
	}
}

func TestE2EReplyWithdrawn(t *testing.T) {
	t.Parallel()
	testReplyWithdrawn(t, claudeReplyCLI(t))
}

func TestE2ECodexReplyWithdrawn(t *testing.T) {
	t.Parallel()
	testReplyWithdrawn(t, codexReplyCLI(t))
}

// fuzzPieces are what random replies are made of: words, emoji with
// modifiers and joiners, flags, combining marks, CJK, right-to-left text,
// zero-width and bidi characters.
var fuzzPieces = []string{
	"ok", "yes", "the", "run", "42", ",", "!", "?",
	"👍", "👍🏽", "👋🏻", "🧑🏿\u200d💻", "👨\u200d👩\u200d👧", "❤️", "🔥", "🇫🇷", "#️⃣", "🫩",
	"e\u0301", "a\u0308", "n\u0303", "o\u0301\u0302",
	"你好", "漢字", "한국어", "カタカナ",
	"مرحبا", "שלום", "می\u200cخواهم", "क्\u200dष",
	"\u200b", "\u200c", "\u200d", "\ufeff", "\u00ad", "\u2060",
	"\u202e", "\u200f", "\u2066", "\u2069", "\u00a0",
}

// fuzzReply builds a reply of 1–8 pieces, separated by spaces or not.
func fuzzReply(rng *rand.Rand) string {
	var b strings.Builder
	for n := 1 + rng.IntN(8); n > 0; n-- {
		b.WriteString(fuzzPieces[rng.IntN(len(fuzzPieces))])
		if rng.IntN(2) == 0 {
			b.WriteByte(' ')
		}
	}
	return strings.TrimSpace(b.String()) + " end"
}

// fuzzSeed is LAB_FUZZ_SEED, else a fixed seed, so a failure reproduces.
func fuzzSeed(t *testing.T) uint64 {
	seed := uint64(21)
	if s := os.Getenv("LAB_FUZZ_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("LAB_FUZZ_SEED: %v", err)
		}
		seed = v
	}
	t.Logf("seed %d (LAB_FUZZ_SEED)", seed)
	return seed
}

// TestE2EReplyFuzz sends 30 random Unicode replies to the real Claude Code
// CLI: each lands exactly or is refused before any key, and none is ever
// left in the box.
func TestE2EReplyFuzz(t *testing.T) {
	t.Parallel()
	c := claudeReplyCLI(t)
	rng := rand.New(rand.NewPCG(fuzzSeed(t), 1))
	landed, refused := 0, 0
	for i := range 30 {
		if err := c.reply(fmt.Sprintf("F%02d ", i), fuzzReply(rng)); err != nil {
			refused++
		} else {
			landed++
		}
	}
	t.Logf("%d landed, %d refused", landed, refused)
}

// TestE2ECodexReplyFuzz is TestE2EReplyFuzz for the Codex CLI, shorter.
func TestE2ECodexReplyFuzz(t *testing.T) {
	t.Parallel()
	c := codexReplyCLI(t)
	rng := rand.New(rand.NewPCG(fuzzSeed(t), 2))
	for i := range 12 {
		c.reply(fmt.Sprintf("F%02d ", i), fuzzReply(rng))
	}
}
