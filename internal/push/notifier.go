package push

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"lab/internal/conv"
	"lab/internal/store"
)

// Runs is the chat layer as the notifier reads it: the runs with their
// live overlay, and each run's pending dialog beside its stream.
type Runs interface {
	List(ctx context.Context) ([]conv.Run, error)
	Get(ctx context.Context, id string) (conv.Run, error)
	Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error)
	// Answer answers a run's pending dialog (a notification's action),
	// with the same checks as the app's answers.
	Answer(ctx context.Context, id string, a conv.Answer) error
}

// Outcome says what became of one device for one push.
type Outcome string

const (
	Sent          Outcome = "sent"
	SkippedOption Outcome = "skipped_option"   // the device did not ask for this reason
	SkippedLooked Outcome = "skipped_presence" // the device's page shows the run
	Pruned        Outcome = "pruned"           // the push service said gone; the device was removed
	Failed        Outcome = "failed"
)

// Decision is one device's outcome for one push, for tests, logs and the
// measurement of how fast a push leaves.
type Decision struct {
	Reason   Reason
	RunID    string
	DeviceID string
	Outcome  Outcome
	Err      error
	// Seen is when the notifier received the event, Done when the push
	// service answered (or the device was skipped).
	Seen, Done time.Time
}

// Config wires a Notifier. DB and Sender are required.
type Config struct {
	DB       *store.DB
	Sender   *Sender
	Presence *Presence // nil: NewPresence(0, nil)
	Logger   *slog.Logger
	// Decided, when set, is called once per device per push decision,
	// from the goroutine that made it.
	Decided func(Decision)
	// Timeout bounds one push to one device; default 30 s.
	Timeout time.Duration
	// ActionTTL is how long a notification's answer actions stay valid;
	// default ActionTTL.
	ActionTTL time.Duration
	// Now is the clock of the actions' expiry; nil means time.Now.
	Now func() time.Time
}

// Notifier turns the chat layer's run events into pushes. Hand it to the
// chat service as a Publisher beside the SSE broker: Publish never blocks,
// and the decisions (state read, presence, options, sending) run on the
// notifier's own goroutine so the live view is never held up by a push
// service.
type Notifier struct {
	cfg      Config
	log      *slog.Logger
	presence *Presence
	actions  *actions
	runs     Runs // set by Start

	events chan item
	// marks is what the notifier last saw of each live run; only the
	// loop goroutine touches it.
	marks map[string]mark

	sends sync.WaitGroup
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once
}

// mark is the part of a run's state whose change means a push.
type mark struct {
	state  conv.State
	toolID string // the pending dialog's, "" when none
}

// item is one thing for the loop: an event to decide on, or a run to
// seed (record as it is, without pushing).
type item struct {
	e    conv.Event
	seed bool
}

// eventBuffer is how many events may wait for the loop. Events are
// invalidations, so if a burst overflows it the next one still tells the
// notifier the newest state.
const eventBuffer = 256

// NewNotifier builds a notifier; Start begins reading events.
func NewNotifier(cfg Config) *Notifier {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Presence == nil {
		cfg.Presence = NewPresence(0, nil)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	return &Notifier{
		cfg: cfg, log: cfg.Logger, presence: cfg.Presence, actions: newActions(cfg.ActionTTL, cfg.Now),
		events: make(chan item, eventBuffer),
		marks:  map[string]mark{},
		stop:   make(chan struct{}), done: make(chan struct{}),
	}
}

// Presence returns the registry the API reports page visibility to.
func (n *Notifier) Presence() *Presence { return n.presence }

// Publish takes an event from the chat layer. It never blocks.
func (n *Notifier) Publish(e conv.Event) {
	if e.Type != conv.EventRunChanged || e.RunID == "" {
		return
	}
	n.enqueue(item{e: e})
}

func (n *Notifier) enqueue(it item) {
	select {
	case n.events <- it:
	default:
		n.log.Warn("push: event queue full, dropping an event", "run", it.e.RunID)
	}
}

// Seed records what these runs look like now without pushing, as Start
// does for the runs it lists: for runs that appear later than Start (a
// peer's, when the hub first reaches it), so a dialog already waiting
// then is not pushed as new. Events published after Seed are decided
// against what it recorded. It never blocks.
func (n *Notifier) Seed(ids []string) {
	for _, id := range ids {
		n.enqueue(item{e: conv.Event{Type: conv.EventRunChanged, RunID: id}, seed: true})
	}
}

// Start records what every live run looks like now, so a restart of lab
// does not push again for a dialog that was already waiting, and then
// follows events until Close. Events published before Start wait in the
// queue, so the notifier can be the chat service's publisher before that
// service (its Runs) exists.
func (n *Notifier) Start(ctx context.Context, runs Runs) {
	n.runs = runs
	list, err := runs.List(ctx)
	if err != nil {
		n.log.Warn("push: list runs", "err", err)
	}
	for _, r := range list {
		if r.State == conv.StateEnded {
			continue
		}
		if m, ok := n.current(ctx, r.ID); ok {
			n.marks[r.ID] = m
		}
	}
	go n.loop()
}

// Close stops following events and waits for pushes in flight.
func (n *Notifier) Close() {
	n.once.Do(func() {
		close(n.stop)
		<-n.done
		n.sends.Wait()
	})
}

func (n *Notifier) loop() {
	defer close(n.done)
	for {
		select {
		case <-n.stop:
			return
		case it := <-n.events:
			if it.seed {
				n.seed(it.e.RunID)
				continue
			}
			n.handle(it.e, time.Now())
		}
	}
}

// current reads a run's state and pending dialog as the live view has
// them now (a fresh refresh, not the possibly older event).
func (n *Notifier) current(ctx context.Context, id string) (mark, bool) {
	p, err := n.runs.Messages(ctx, id, conv.Query{Limit: 1})
	if err != nil {
		return mark{}, false
	}
	m := mark{state: p.State}
	if p.PendingDialog.Pending() {
		m.toolID = p.PendingDialog.ToolID
	}
	return m, true
}

// seed records a run's current mark.
func (n *Notifier) seed(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), n.cfg.Timeout)
	defer cancel()
	if m, ok := n.current(ctx, id); ok && m.state != conv.StateEnded {
		n.marks[id] = m
	}
}

// handle decides whether the run's change is worth a push: a dialog that
// was not waiting before (blocked), or a turn that just ended.
func (n *Notifier) handle(e conv.Event, seen time.Time) {
	ctx, cancel := context.WithTimeout(context.Background(), n.cfg.Timeout)
	defer cancel()
	if e.State == conv.StateEnded {
		delete(n.marks, e.RunID)
		return
	}
	page, err := n.runs.Messages(ctx, e.RunID, conv.Query{Limit: 1})
	if err != nil {
		return
	}
	prev := n.marks[e.RunID]
	cur := mark{state: page.State}
	if page.PendingDialog.Pending() {
		cur.toolID = page.PendingDialog.ToolID
	}
	if cur.state == conv.StateEnded {
		delete(n.marks, e.RunID)
		return
	}
	n.marks[e.RunID] = cur

	var reason Reason
	switch {
	case cur.toolID != "" && cur.toolID != prev.toolID:
		reason = ReasonBlocked
	case cur.toolID == "" && cur.state == conv.StateQuestion && prev.state != conv.StateQuestion:
		// The CLI waits on something lab cannot show as a card.
		reason = ReasonBlocked
	case cur.state == conv.StateNeedsInput && prev.state != conv.StateNeedsInput:
		reason = ReasonTurnEnd
	default:
		return
	}
	run, err := n.runs.Get(ctx, e.RunID)
	if err != nil {
		return
	}
	about := About{Run: run}
	if reason == ReasonBlocked {
		about.Dialog = page.PendingDialog
	}
	n.fanOut(ctx, reason, about, seen)
}

// fanOut sends to every device that wants this reason and is not looking
// at the run, each on its own goroutine so one slow push service does not
// delay the others.
func (n *Notifier) fanOut(ctx context.Context, reason Reason, s About, seen time.Time) {
	devices, err := n.cfg.DB.PushDevices(ctx)
	if err != nil {
		n.log.Warn("push: list devices", "err", err)
		return
	}
	for _, d := range devices {
		dec := Decision{Reason: reason, RunID: s.Run.ID, DeviceID: d.ID, Seen: seen}
		switch {
		case reason == ReasonBlocked && !d.Blocked, reason == ReasonTurnEnd && !d.TurnEnd:
			dec.Outcome = SkippedOption
		case n.presence.Looking(d.ID, s.Run.ID):
			dec.Outcome = SkippedLooked
		}
		if dec.Outcome != "" {
			dec.Done = time.Now()
			n.decided(dec)
			continue
		}
		p := payloadFor(reason, s, d.IncludeContent)
		if reason == ReasonBlocked && d.IncludeContent {
			p.Actions = n.actions.issue(s.Run.ID, s.Dialog)
		}
		n.sends.Add(1)
		go func() {
			defer n.sends.Done()
			ctx, cancel := context.WithTimeout(context.Background(), n.cfg.Timeout)
			defer cancel()
			dec.Outcome, dec.Err = n.deliver(ctx, d, p)
			dec.Done = time.Now()
			n.decided(dec)
		}()
	}
}

// deliver sends one push and records the result on the device; a gone
// subscription is removed.
func (n *Notifier) deliver(ctx context.Context, d store.PushDevice, p Payload) (Outcome, error) {
	err := n.cfg.Sender.Send(ctx, d, p)
	if errors.Is(err, ErrGone) {
		n.log.Info("push: subscription gone, removing the device", "device", d.ID, "name", d.Name)
		if derr := n.cfg.DB.DeletePushDevice(ctx, d.ID); derr != nil && conv.KindOf(derr) != conv.ENotFound {
			n.log.Warn("push: remove device", "device", d.ID, "err", derr)
		}
		return Pruned, err
	}
	failure := ""
	if err != nil {
		failure = Readable(err, hostOf(d.Endpoint))
		n.log.Warn("push failed", "device", d.ID, "name", d.Name, "reason", p.Reason, "err", err)
	}
	if nerr := n.cfg.DB.NotePushResult(ctx, d.ID, time.Now(), failure); nerr != nil {
		n.log.Warn("push: note result", "device", d.ID, "err", nerr)
	}
	if err != nil {
		return Failed, err
	}
	return Sent, nil
}

func (n *Notifier) decided(d Decision) {
	if n.cfg.Decided != nil {
		n.cfg.Decided(d)
	}
}

// Test sends a test push to one device now, whatever its options and
// presence. Returns conv.ENotFound for an unknown device, conv.EConflict
// when its subscription turned out gone (the device is removed), and
// conv.EUnavailable when the push service refused or could not be reached.
func (n *Notifier) Test(ctx context.Context, deviceID string) error {
	d, err := n.cfg.DB.PushDevice(ctx, deviceID)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, n.cfg.Timeout)
	defer cancel()
	out, err := n.deliver(ctx, d, testPayload(d.Name))
	switch out {
	case Sent:
		return nil
	case Pruned:
		return conv.Wrap(conv.EConflict, err, "the push service no longer knows this device's subscription; lab removed it: turn notifications on again")
	}
	return conv.Wrap(conv.EUnavailable, err, Readable(err, hostOf(d.Endpoint)))
}
