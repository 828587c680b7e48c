package chat

import (
	"context"
	"log/slog"
	"time"

	"lab/internal/agent"
	"lab/internal/conv"
	"lab/internal/tmux"
)

// Pane is one run's tmux pane as the actor drives it: named keys (a run
// of them in one call, read by the CLI as one burst), bracketed pastes,
// text typed as keystrokes (the terminal view),
// and plain-text captures.
type Pane interface {
	SendKeys(ctx context.Context, keys ...string) error
	Paste(ctx context.Context, text string) error
	Type(ctx context.Context, text string) error
	Capture(ctx context.Context) (string, error)
}

// TmuxPane binds a Pane to a target (a session name or pane id) on lab's
// tmux server.
type TmuxPane struct {
	Server *tmux.Server
	Target string
}

func (p TmuxPane) SendKeys(ctx context.Context, keys ...string) error {
	return p.Server.SendKeys(ctx, p.Target, keys...)
}

func (p TmuxPane) Paste(ctx context.Context, text string) error {
	return p.Server.Paste(ctx, p.Target, text)
}

func (p TmuxPane) Type(ctx context.Context, text string) error {
	return p.Server.Type(ctx, p.Target, text)
}

func (p TmuxPane) Capture(ctx context.Context) (string, error) {
	return p.Server.Capture(ctx, p.Target)
}

// DefaultKeyDelay is zero: the keys between two checkpoints of a recipe go
// to the pane in one call, which both CLIs read as one burst without
// losing a key (docs/benchmarks.md, "Answer speed").
const DefaultKeyDelay time.Duration = 0

// DefaultReplyDelay is the pause between a reply's text showing in the
// input box and its Enter. Chosen from the pacing measurements in
// docs/benchmarks.md ("Answer pacing"), with headroom.
const DefaultReplyDelay = 50 * time.Millisecond

// ActorOptions tune an Actor. The zero value is usable.
type ActorOptions struct {
	// KeyDelay, when positive, sends an answer's keys one per tmux call
	// with this pause after each key or paste, as lab typed before its
	// bursts (kept for the pacing measurements); zero (DefaultKeyDelay)
	// sends the keys between two checkpoints in one call.
	KeyDelay time.Duration
	// ReplyDelay is the pause between a reply's text showing in the
	// input box and its Enter (DefaultReplyDelay).
	ReplyDelay time.Duration
	// CheckTimeout is how long a checkpoint polls the pane for the
	// expected screen before giving up (5s). It also bounds how long an
	// answer waits for the picker to appear at all. Generous, because a
	// checkpoint that gives up mid-recipe leaves a half-driven picker.
	CheckTimeout time.Duration
	// PickerGrace is how long the dialog's picker must have shown before
	// a key that acts on it (DefaultPickerGrace); negative disables it.
	PickerGrace time.Duration
	// ScreenGrace is the same for a screen the answer itself brought up
	// (a form's next question, its review): DefaultScreenGrace when
	// zero, none when negative.
	ScreenGrace time.Duration
	// CheckPoll is the pause between pane captures while polling (20ms).
	CheckPoll time.Duration
	// SettleTimeout is how long an answer, after its committing key,
	// waits for the dialog to show resolved before releasing the run
	// (10s). A timeout is logged, not returned: the key was sent.
	SettleTimeout time.Duration
	// MaxReply caps a reply's size in bytes (DefaultMaxReply).
	MaxReply int
	// Journal is a file where the actor notes the reply it has in the
	// run's input box, so that a lab stopped mid-reply knows that text
	// for its own and removes it before the next reply; "" keeps the note
	// in memory only.
	Journal string
	// Logger receives one line per action (slog.Default()).
	Logger *slog.Logger
}

func (o *ActorOptions) fill() {
	if o.ReplyDelay <= 0 {
		o.ReplyDelay = DefaultReplyDelay
	}
	if o.CheckTimeout <= 0 {
		o.CheckTimeout = 5 * time.Second
	}
	if o.PickerGrace == 0 {
		o.PickerGrace = DefaultPickerGrace
	}
	if o.ScreenGrace == 0 {
		o.ScreenGrace = DefaultScreenGrace
	}
	if o.CheckPoll <= 0 {
		o.CheckPoll = 20 * time.Millisecond
	}
	if o.SettleTimeout <= 0 {
		o.SettleTimeout = 10 * time.Second
	}
	if o.MaxReply <= 0 {
		o.MaxReply = DefaultMaxReply
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
}

// Actor takes actions on one run: answers, replies and interrupts. All of
// them hold the run's lock for their whole duration, so two actions never
// interleave keys in the same pane, and an answer re-reads the pending
// dialog under the lock, after any earlier answer settled.
type Actor struct {
	pane    Pane
	drv     agent.Driver
	pending func(ctx context.Context) (*conv.Dialog, error)
	intents *Intents
	opts    ActorOptions
	log     *slog.Logger

	lock chan struct{} // a mutex that a waiting caller can give up on

	// left is the reply lab has in the input box, or left there.
	left leftover

	// answered are the tool_ids lab committed an answer for, newest
	// last: a second answer for one of them is a conflict even before
	// the transcript shows the resolution.
	answered []string
	// lastTook is how long the last committed answer took from its
	// first checkpoint to its committing key (for the pacing figures).
	lastTook time.Duration
}

// answeredMax bounds Actor.answered.
const answeredMax = 64

// NewActor returns the actor of a run whose pane is p and whose CLI is
// driven by drv (its provider's driver for the run's CLI version). pending
// returns the run's current pending dialog, freshly read, or nil; intents
// (may be nil) receives what each answer means to record.
func NewActor(p Pane, drv agent.Driver, pending func(ctx context.Context) (*conv.Dialog, error), intents *Intents, opts ActorOptions) *Actor {
	opts.fill()
	return &Actor{
		pane:    p,
		drv:     drv,
		pending: pending,
		intents: intents,
		opts:    opts,
		log:     opts.Logger,
		lock:    make(chan struct{}, 1),
		left:    leftover{path: opts.Journal},
	}
}

// acquire takes the run's lock, or gives up when ctx ends.
func (a *Actor) acquire(ctx context.Context) error {
	select {
	case a.lock <- struct{}{}:
		return nil
	case <-ctx.Done():
		return conv.Wrap(conv.EUnavailable, ctx.Err(), "another action on this run is still in progress")
	}
}

func (a *Actor) release() { <-a.lock }

// pause waits d or until ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// poll captures the pane until ok accepts it or CheckTimeout passes, and
// returns ok's last complaint.
func (a *Actor) poll(ctx context.Context, ok func(capture string) error) error {
	deadline := time.Now().Add(a.opts.CheckTimeout)
	for {
		capture, err := a.pane.Capture(ctx)
		if err != nil {
			return conv.Wrap(conv.EUnavailable, err, "cannot read the run's pane")
		}
		last := ok(capture)
		if last == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return last
		}
		if err := pause(ctx, a.opts.CheckPoll); err != nil {
			return err
		}
	}
}

func (a *Actor) wasAnswered(toolID string) bool {
	for _, id := range a.answered {
		if id == toolID {
			return true
		}
	}
	return false
}

func (a *Actor) markAnswered(toolID string) {
	a.answered = append(a.answered, toolID)
	if len(a.answered) > answeredMax {
		a.answered = a.answered[len(a.answered)-answeredMax:]
	}
}
