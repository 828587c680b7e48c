package chat

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"lab/internal/conv"
)

// fakeTUI is a small stand-in for the Claude Code TUI, for fast unit tests
// of the actor's logic (locking, guards, checkpoints, pacing failures). It
// renders its screens in the same plain-text shapes the real CLI 2.1.328
// prints (see internal/claude/testdata/panes); the real-CLI tests in
// answer_e2e_test.go prove the recipes against the real thing.
type fakeTUI struct {
	mu sync.Mutex

	dialog  *conv.Dialog
	planRow []string // plan picker rows; the last is the feedback row
	q       int      // current question
	cursor  int
	ticked  [][]int  // per question, toggle order
	other   []string // per question free text
	review  bool
	records map[string]string // question -> recorded answer
	result  string            // "answered", "declined", "approved", "rejected: <fb>"

	prompt    string
	submitted []string
	// images counts the images attached to the prompt; a pasted path
	// ending in an image extension attaches one ("[Image #n] "), as the
	// real CLI does, unless noImages (a CLI that takes no such paste).
	images   int
	noImages bool
	escaped  bool // the last key was an Escape on a box holding text

	keys   []string   // every key and paste received, in order
	bursts [][]string // the same, one entry per SendKeys or Paste call
	// drop, when set, is asked for each key; true swallows it (a key lost
	// on the way to the TUI).
	drop func(n int, key string) bool
	// deaf swallows everything (a hung TUI); deafTo swallows one key.
	deaf   bool
	deafTo string
	// enterLost swallows the next n Enters in the prompt.
	enterLost int
	// mangle, when set, is how the input box draws a paste.
	mangle func(string) string
	// onKey runs after each key is applied (to inject terminal actions).
	onKey func(f *fakeTUI, key string)
	// guard drops an Enter that comes sooner than this after the current
	// screen appeared, as the real CLI does right after a picker shows.
	guard time.Duration
	shown time.Time
}

func newFakeTUI(d *conv.Dialog) *fakeTUI {
	f := &fakeTUI{dialog: d, records: map[string]string{}, shown: time.Now()}
	if d != nil {
		f.ticked = make([][]int, len(d.Questions))
		f.other = make([]string, len(d.Questions))
	}
	f.planRow = []string{"Yes, and use auto mode", "Yes, manually approve edits", "Tell Claude what to change"}
	return f
}

func (f *fakeTUI) pending(ctx context.Context) (*conv.Dialog, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dialog == nil || f.result != "" {
		return nil, nil
	}
	c := *f.dialog
	return &c, nil
}

func (f *fakeTUI) sentBursts() [][]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]string(nil), f.bursts...)
}

func (f *fakeTUI) sent() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.keys...)
}

// SendKeys applies keys in order, as the CLI reads a burst.
func (f *fakeTUI) SendKeys(ctx context.Context, keys ...string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.bursts = append(f.bursts, keys)
	for _, key := range keys {
		f.keys = append(f.keys, key)
		if f.deaf || key == f.deafTo || (f.drop != nil && f.drop(len(f.keys), key)) {
			continue
		}
		f.apply(key)
		if f.onKey != nil {
			f.onKey(f, key)
		}
	}
	return nil
}

func (f *fakeTUI) Paste(ctx context.Context, text string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.keys = append(f.keys, "paste:"+text)
	f.bursts = append(f.bursts, []string{"paste:" + text})
	if f.deaf {
		return nil
	}
	if !f.active() {
		if !f.noImages && strings.HasPrefix(text, "/") && (strings.HasSuffix(text, ".png") || strings.HasSuffix(text, ".jpg")) {
			f.images++
			f.prompt += fmt.Sprintf("[Image #%d] ", f.images)
			return nil
		}
		if f.mangle != nil {
			text = f.mangle(text)
		}
		f.prompt += text
		return nil
	}
	if f.dialog.Kind == conv.DialogPlan {
		if f.cursor == len(f.planRow)-1 {
			f.other = append(f.other[:0], f.other0()+text)
		}
		return nil
	}
	if !f.review && f.cursor == len(f.curQ().Options) {
		f.other[f.q] += text
	}
	return nil
}

// Type records typed text; the fake's screens take none of it.
func (f *fakeTUI) Type(ctx context.Context, text string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.keys = append(f.keys, "type:"+text)
	return nil
}

func (f *fakeTUI) other0() string {
	if len(f.other) == 0 {
		return ""
	}
	return f.other[0]
}

func (f *fakeTUI) active() bool { return f.dialog != nil && f.result == "" }

func (f *fakeTUI) curQ() conv.Question { return f.dialog.Questions[f.q] }

// rows is how many selectable rows the current screen has.
func (f *fakeTUI) rows() int {
	switch {
	case f.dialog.Kind == conv.DialogPlan:
		return len(f.planRow)
	case f.review:
		return 2
	case f.curQ().MultiSelect:
		return len(f.curQ().Options) + 3 // free text, Submit, Chat
	}
	return len(f.curQ().Options) + 2 // free text, Chat
}

func (f *fakeTUI) apply(key string) {
	if !f.active() {
		escaped := f.escaped
		f.escaped = false
		switch key {
		case "Enter":
			if f.enterLost > 0 {
				f.enterLost--
				return
			}
			if strings.TrimSpace(f.prompt) != "" {
				f.submitted = append(f.submitted, f.prompt)
			}
			f.prompt, f.images = "", 0
		case "C-u":
			// The line's text, or the line break before an empty line.
			lines := strings.Split(f.prompt, "\n")
			if n := len(lines); lines[n-1] != "" {
				lines[n-1] = ""
			} else if n > 1 {
				lines = lines[:n-1]
			}
			f.prompt = strings.Join(lines, "\n")
		case "Escape":
			// The first Escape on a box holding text asks for a second.
			if escaped {
				f.prompt, f.images = "", 0
			} else {
				f.escaped = f.prompt != ""
			}
		}
		return
	}
	switch key {
	case "Escape":
		f.result = "declined"
	case "Down":
		f.cursor = (f.cursor + 1) % f.rows()
	case "Up":
		f.cursor = (f.cursor + f.rows() - 1) % f.rows()
	case "Space":
		if !f.review && f.dialog.Kind == conv.DialogQuestion && f.curQ().MultiSelect {
			if f.cursor < len(f.curQ().Options) {
				f.toggle(f.cursor)
			} else if f.cursor == len(f.curQ().Options) {
				f.other[f.q] += " "
			}
		}
	case "Enter":
		if time.Since(f.shown) < f.guard {
			return
		}
		f.enter()
	}
}

func (f *fakeTUI) toggle(i int) {
	t := f.ticked[f.q]
	for k, v := range t {
		if v == i {
			f.ticked[f.q] = append(t[:k], t[k+1:]...)
			return
		}
	}
	f.ticked[f.q] = append(t, i)
}

func (f *fakeTUI) enter() {
	d := f.dialog
	if d.Kind == conv.DialogPlan {
		fb := len(f.planRow) - 1
		switch {
		case f.cursor < fb:
			f.result = "approved"
		case f.other0() != "":
			f.result = "rejected: " + f.other0()
		}
		return
	}
	if f.review {
		if f.cursor == 0 {
			f.result = "answered"
		} else {
			f.result = "declined"
		}
		return
	}
	q := f.curQ()
	n := len(q.Options)
	if !q.MultiSelect {
		switch {
		case f.cursor < n:
			f.records[q.Question] = q.Options[f.cursor].Label
		case f.cursor == n && f.other[f.q] != "":
			f.records[q.Question] = f.other[f.q]
		default:
			f.result = "declined"
			return
		}
		f.advance()
		return
	}
	switch {
	case f.cursor < n:
		f.toggle(f.cursor)
	case f.cursor == n+1:
		var segs []string
		for _, i := range f.ticked[f.q] {
			segs = append(segs, q.Options[i].Label)
		}
		if f.other[f.q] != "" {
			segs = append(segs, f.other[f.q])
		}
		f.records[q.Question] = strings.Join(segs, ", ")
		f.advance()
	}
}

func (f *fakeTUI) advance() {
	f.cursor = 0
	f.shown = time.Now()
	if f.q+1 < len(f.dialog.Questions) {
		f.q++
		return
	}
	if len(f.dialog.Questions) > 1 || f.curQ().MultiSelect {
		f.review = true
		return
	}
	f.result = "answered"
}

const fakeSep = "────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────"

func (f *fakeTUI) Capture(ctx context.Context) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	b.WriteString("❯ lab:single which database?\n\n● I have a question for you.\n\n")
	if !f.active() {
		lines := strings.Split(f.prompt, "\n")
		fmt.Fprintf(&b, "%s\n❯ %s\n", fakeSep, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "  %s\n", l)
		}
		fmt.Fprintf(&b, "%s\n  ⏵⏵ auto mode on (shift+tab to cycle)\n", fakeSep)
		return b.String(), nil
	}
	cur := func(i int) string {
		if i == f.cursor {
			return "❯"
		}
		return " "
	}
	if f.dialog.Kind == conv.DialogPlan {
		b.WriteString("  " + fakeSep[:100] + "\n   Claude has written up a plan and is ready to execute. Would you like to proceed?\n\n")
		for i, r := range f.planRow {
			if i == len(f.planRow)-1 && f.other0() != "" {
				r = f.other0()
			}
			fmt.Fprintf(&b, "   %s %d. %s\n", cur(i), i+1, r)
		}
		b.WriteString("        shift+tab to approve with this feedback\n\n   ctrl+g to edit in Vim\n")
		return b.String(), nil
	}
	b.WriteString(fakeSep + "\n")
	qs := f.dialog.Questions
	if len(qs) == 1 && !qs[0].MultiSelect {
		fmt.Fprintf(&b, " ☐ %s\n", qs[0].Header)
	} else {
		b.WriteString("← ")
		for i, q := range qs {
			box := "☐"
			if i < f.q || f.review || len(f.ticked[i]) > 0 {
				box = "☒"
			}
			fmt.Fprintf(&b, " %s %s ", box, q.Header)
		}
		b.WriteString(" ✔ Submit  →\n")
	}
	if f.review {
		b.WriteString("\nReview your answers\n\n")
		for _, q := range qs {
			fmt.Fprintf(&b, " ● %s\n   → %s\n", q.Question, f.records[q.Question])
		}
		fmt.Fprintf(&b, "\n%s 1. Submit answers\n%s 2. Cancel\n", cur(0), cur(1))
		return b.String(), nil
	}
	q := f.curQ()
	fmt.Fprintf(&b, "\n%s\n\n", q.Question)
	n := len(q.Options)
	box := func(i int) string {
		if !q.MultiSelect {
			return ""
		}
		if i == n {
			if f.other[f.q] != "" {
				return "[✔] "
			}
			return "[ ] "
		}
		for _, t := range f.ticked[f.q] {
			if t == i {
				return "[✔] "
			}
		}
		return "[ ] "
	}
	for i, o := range q.Options {
		fmt.Fprintf(&b, "%s %d. %s%s\n     %s\n", cur(i), i+1, box(i), o.Label, o.Description)
	}
	free := "Type something."
	if q.MultiSelect {
		free = "Type something"
	}
	if f.other[f.q] != "" {
		free = f.other[f.q]
	}
	fmt.Fprintf(&b, "%s %d. %s%s\n", cur(n), n+1, box(n), free)
	chat := n + 1
	if q.MultiSelect {
		label := "Next"
		if f.q == len(qs)-1 {
			label = "Submit"
		}
		fmt.Fprintf(&b, "%s    %s\n", cur(n+1), label)
		chat = n + 2
	}
	fmt.Fprintf(&b, "%s\n%s %d. Chat about this\n\nEnter to select · ↑/↓ to navigate · Esc to cancel\n", fakeSep, cur(chat), chat+1-boolInt(q.MultiSelect))
	return b.String(), nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
