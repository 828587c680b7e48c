package chat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"lab/internal/agent"
	"lab/internal/claude"
	"lab/internal/clitest"
	"lab/internal/conv"
)

// promptTUI is a stand-in for Claude Code's prompt screen, in the shapes
// 2.1.332 draws (internal/claude/testdata/steer): the input box, its
// slash menu while the box holds a "/" word, and the footer's mode, which
// BTab cycles. Fast tests of the steering logic; the real CLIs prove it
// in cmd/lab's steer_e2e_test.go.
type promptTUI struct {
	mu     sync.Mutex
	box    string
	cycle  []string // footer words, in the order BTab cycles them
	mode   int
	menu   []string // the commands the menu offers
	pick   string   // when set, the menu's cursor sits on this one whatever is typed
	busy   bool
	deafTo string // a key the TUI ignores
	keys   []string
	run    []string // the lines Enter submitted
}

func newPromptTUI() *promptTUI {
	return &promptTUI{
		cycle: []string{"⏵⏵ auto mode on (shift+tab to cycle)", "⏸ manual mode on · ? for shortcuts", "⏵⏵ accept edits on (shift+tab to cycle)", "⏸ plan mode on (shift+tab to cycle)"},
		menu:  []string{"compact", "autocompact", "clear", "config", "model"},
	}
}

func (p *promptTUI) SendKeys(ctx context.Context, keys ...string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, key := range keys {
		p.keys = append(p.keys, key)
		if key == p.deafTo {
			continue
		}
		switch key {
		case "BTab":
			p.mode = (p.mode + 1) % len(p.cycle)
		case "C-u":
			p.box = ""
		case "Enter":
			p.run = append(p.run, p.box)
			p.box = ""
		}
	}
	return nil
}

func (p *promptTUI) Paste(ctx context.Context, text string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keys = append(p.keys, "paste:"+text)
	p.box += text
	return nil
}

func (p *promptTUI) Type(ctx context.Context, text string) error { return p.Paste(ctx, text) }

func (p *promptTUI) Capture(ctx context.Context) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b strings.Builder
	b.WriteString("❯ lab:text first\n\n● Hello from lab's scripted model.\n\n")
	if strings.HasPrefix(p.box, "/") && !strings.Contains(p.box, " ") {
		first := true
		for _, c := range p.menu {
			if !strings.Contains(c, strings.TrimPrefix(p.box, "/")) {
				continue
			}
			cur := "  "
			if (p.pick == "" && first) || p.pick == c {
				cur = "❯ "
			}
			first = false
			fmt.Fprintf(&b, "  %s/%-26s %s\n", cur, c, "what it does")
		}
	}
	footer := p.cycle[p.mode]
	if p.busy {
		footer += " · esc to interrupt"
	}
	fmt.Fprintf(&b, "%s\n❯ %s\n%s\n  %s\n", fakeSep, p.box, fakeSep, footer)
	return b.String(), nil
}

func (p *promptTUI) sent() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.keys)
}

func noDialog(context.Context) (*conv.Dialog, error) { return nil, nil }

func TestCommandChecksTheMenu(t *testing.T) {
	p := newPromptTUI()
	act := NewActor(p, claudeDriver("2.1.332"), noDialog, nil, testOpts())
	if err := act.Command(context.Background(), "compact", "/compact"); err != nil {
		t.Fatal(err)
	}
	if got := p.sent(); strings.Join(got, ",") != "paste:/compact,Enter" || p.run[0] != "/compact" {
		t.Fatalf("sent %v, ran %v; want the command pasted and Enter", got, p.run)
	}

	// The menu's cursor on another command: no Enter, the box emptied.
	p = newPromptTUI()
	p.pick = "autocompact"
	act = NewActor(p, claudeDriver("2.1.332"), noDialog, nil, testOpts())
	err := act.Command(context.Background(), "compact", "/compact")
	if conv.KindOf(err) != conv.EConflict || !strings.Contains(err.Error(), "/autocompact") {
		t.Fatalf("got %v; want a conflict naming the command the menu picks", err)
	}
	if got := p.sent(); slices.Contains(got, "Enter") || p.box != "" {
		t.Fatalf("sent %v, box %q; want no Enter and the box emptied", got, p.box)
	}

	// With its argument the menu closes and Enter submits the line.
	p = newPromptTUI()
	act = NewActor(p, claudeDriver("2.1.332"), noDialog, nil, testOpts())
	if err := act.Command(context.Background(), "compact", "/compact keep the tests"); err != nil || p.run[0] != "/compact keep the tests" {
		t.Fatalf("got %v, ran %v", err, p.run)
	}
}

func TestCommandRefusedWithNothingTyped(t *testing.T) {
	pending := func(context.Context) (*conv.Dialog, error) {
		return &conv.Dialog{ToolID: "toolu_1", Kind: conv.DialogQuestion, Answerable: true}, nil
	}
	for name, c := range map[string]struct {
		setup   func(*promptTUI)
		pending func(context.Context) (*conv.Dialog, error)
		want    string
	}{
		"a dialog waits":    {nil, pending, "dialog is waiting"},
		"the agent works":   {func(p *promptTUI) { p.busy = true }, noDialog, "agent is working"},
		"text in the box":   {func(p *promptTUI) { p.box = "half a thought" }, noDialog, "already holds text"},
		"a mode while busy": {func(p *promptTUI) { p.busy = true }, noDialog, "agent is working"},
	} {
		p := newPromptTUI()
		if c.setup != nil {
			c.setup(p)
		}
		opts := testOpts()
		act := NewActor(p, claudeDriver("2.1.332"), c.pending, nil, opts)
		var err error
		if strings.HasPrefix(name, "a mode") {
			err = act.Switch(context.Background(), "mode plan", func(c string) ([]agent.Move, error) { return claudeDriver("2.1.332").SwitchMode("plan", c) })
		} else {
			err = act.Command(context.Background(), "compact", "/compact")
		}
		if conv.KindOf(err) != conv.EConflict || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v; want a conflict saying %q", name, err, c.want)
		}
		if got := p.sent(); len(got) != 0 {
			t.Errorf("%s: sent %v; want nothing", name, got)
		}
	}
}

func TestSwitchCyclesUntilTheFooterSaysSo(t *testing.T) {
	drv := claudeDriver("2.1.332")
	switchTo := func(p *promptTUI, mode string) error {
		act := NewActor(p, drv, noDialog, nil, testOpts())
		return act.Switch(context.Background(), "mode "+mode, func(c string) ([]agent.Move, error) { return drv.SwitchMode(mode, c) })
	}
	p := newPromptTUI()
	if err := switchTo(p, "acceptEdits"); err != nil || p.mode != 2 || len(p.sent()) != 2 {
		t.Fatalf("auto → acceptEdits: %v, mode %d after %v; want two presses", err, p.mode, p.sent())
	}
	if err := switchTo(p, "acceptEdits"); err != nil || len(p.sent()) != 2 {
		t.Fatalf("acceptEdits → acceptEdits: %v after %v; want no press", err, p.sent())
	}

	// A cycle without the target comes back to where it started.
	p = newPromptTUI()
	p.cycle = p.cycle[1:] // no auto mode on this machine: manual, accept edits, plan
	if err := switchTo(p, "auto"); conv.KindOf(err) != conv.EConflict || !strings.Contains(err.Error(), "cycles back") || p.mode != 0 {
		t.Fatalf("to a mode the cycle lacks: %v, left at %d; want a conflict, back where it was", err, p.mode)
	}

	// A TUI that ignores the key: refused once the pane does not move.
	p = newPromptTUI()
	p.deafTo = "BTab"
	if err := switchTo(p, "plan"); conv.KindOf(err) != conv.EConflict || !strings.Contains(err.Error(), "did not take BTab") || len(p.sent()) != 1 {
		t.Fatalf("deaf TUI: %v after %v; want a conflict after one press", err, p.sent())
	}
}

// TestServiceSteering: the service lists the run's commands (the CLI's
// and the operator's own), refuses what it will not send before any key,
// types what it will, and shows the mode the pane confirmed.
func TestServiceSteering(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	clitest.WriteText(t, home+"/.claude/commands/hello.md", "---\ndescription: Say hello\n---\nhello\n")
	runner := newStubRunner(t)
	runner.add("run-1")
	p := newPromptTUI()
	runner.panes = map[string]Pane{"run-1": p}
	svc, err := NewService(ctx, ServiceConfig{Runs: runner, Providers: []agent.Provider{claude.New()}, Library: NewLibrary(testShelves(t.TempDir()), nil),
		Home: home, SweepEvery: time.Hour,
		Actions: func(r conv.Run, drv agent.Driver, pane Pane, pending func(context.Context) (*conv.Dialog, error)) Actions {
			return NewActor(pane, drv, pending, nil, testOpts())
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)

	cmds, err := svc.Commands(ctx, "run-1")
	names := map[string]conv.Command{}
	for _, c := range cmds {
		names[c.Name] = c
	}
	if err != nil || names["hello"].Source != conv.SourceUser || names["compact"].Source != conv.SourceBuiltin {
		t.Fatalf("commands %v, %v; want the operator's /hello and the built-in /compact", cmds, err)
	}
	if _, err := svc.Commands(ctx, "nope"); conv.KindOf(err) != conv.ENotFound {
		t.Errorf("commands of an unknown run: %v; want ENotFound", err)
	}
	for _, c := range []struct {
		req  conv.CommandRequest
		kind conv.ErrorKind
		want string
	}{
		{conv.CommandRequest{Name: "config"}, conv.EConflict, "lab does not send /config"},
		{conv.CommandRequest{Name: "model"}, conv.EInvalid, "needs text after it"},
		{conv.CommandRequest{Name: "clear", Args: "now"}, conv.EInvalid, "takes no text"},
		{conv.CommandRequest{Name: "nope"}, conv.EInvalid, "offers no command /nope"},
		{conv.CommandRequest{Name: "compact", Args: "two\nlines"}, conv.EInvalid, "one line"},
		{conv.CommandRequest{Name: "com pact"}, conv.EInvalid, "has a space"},
		{conv.CommandRequest{}, conv.EInvalid, "name is required"},
	} {
		if err := svc.RunCommand(ctx, "run-1", c.req); conv.KindOf(err) != c.kind || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v; want %s saying %q", c.req, err, c.kind, c.want)
		}
	}
	if got := p.sent(); len(got) != 0 {
		t.Fatalf("refused commands sent %v; want nothing", got)
	}
	if err := svc.RunCommand(ctx, "run-1", conv.CommandRequest{Name: "/hello", Args: "world"}); err != nil || p.run[0] != "/hello world" {
		t.Fatalf("/hello world: %v, ran %v", err, p.run)
	}
	if err := svc.SetMode(ctx, "run-1", "plan"); err != nil || p.mode != 3 {
		t.Fatalf("SetMode(plan): %v, footer %d", err, p.mode)
	}
	page, err := svc.Messages(ctx, "run-1", conv.Query{})
	if err != nil || page.Settings == nil || page.Settings.Mode != "plan" {
		t.Fatalf("settings %+v, %v; want the mode the pane confirmed", page.Settings, err)
	}
	if err := svc.SetMode(ctx, "run-1", "warp"); conv.KindOf(err) != conv.EInvalid {
		t.Errorf("SetMode(warp): %v; want EInvalid", err)
	}
}
