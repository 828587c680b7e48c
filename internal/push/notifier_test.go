package push

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"lab/internal/conv"
	"lab/internal/push/pushtest"
	"lab/internal/store"
)

// fakeRuns stands in for the chat layer: the test sets each run's state
// and pending dialog, then publishes run.changed as the live view would.
type fakeRuns struct {
	mu      sync.Mutex
	runs    map[string]conv.Run
	dlg     map[string]*conv.Dialog
	answers []conv.Answer // what Answer was asked, in order
}

func (f *fakeRuns) set(id string, s conv.State, d *conv.Dialog) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.runs[id]
	r.ID, r.Cwd, r.Title, r.State, r.Pending = id, "/work/"+id, "Title of "+id, s, d != nil
	r.Preview = "last words of " + id
	f.runs[id] = r
	f.dlg[id] = d
}

func (f *fakeRuns) List(ctx context.Context) ([]conv.Run, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []conv.Run
	for _, r := range f.runs {
		out = append(out, r)
	}
	return out, nil
}

func (f *fakeRuns) Get(ctx context.Context, id string) (conv.Run, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.runs[id]
	if !ok {
		return r, conv.Errorf(conv.ENotFound, "no run %s", id)
	}
	return r, nil
}

func (f *fakeRuns) Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error) {
	r, err := f.Get(ctx, id)
	if err != nil {
		return conv.Page{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return conv.Page{State: r.State, PendingDialog: f.dlg[id].Clone(), Messages: []conv.Message{}}, nil
}

// Answer records the answer and, as the chat layer would, refuses one to
// a dialog that is not the pending one.
func (f *fakeRuns) Answer(ctx context.Context, id string, a conv.Answer) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if d := f.dlg[id]; d == nil || d.ToolID != a.ToolID {
		return conv.Errorf(conv.EConflict, "the dialog changed")
	}
	f.answers = append(f.answers, a)
	return nil
}

func (f *fakeRuns) answered() []conv.Answer {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]conv.Answer(nil), f.answers...)
}

type notifierFixture struct {
	db   *store.DB
	svc  *pushtest.Service
	runs *fakeRuns
	n    *Notifier
	dec  chan Decision
}

func newNotifierFixture(t *testing.T, prime func(*fakeRuns)) *notifierFixture {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &notifierFixture{db: db, svc: pushtest.New(t), runs: &fakeRuns{runs: map[string]conv.Run{}, dlg: map[string]*conv.Dialog{}}, dec: make(chan Decision, 64)}
	if prime != nil {
		prime(f.runs)
	}
	f.n = NewNotifier(Config{
		DB: db, Sender: &Sender{Keys: testKeys(t)},
		Decided: func(d Decision) { f.dec <- d },
	})
	f.n.Start(context.Background(), f.runs)
	t.Cleanup(f.n.Close)
	return f
}

func (f *notifierFixture) device(t *testing.T, name string, o store.PushOptions) (store.PushDevice, *pushtest.Subscription) {
	t.Helper()
	sub := f.svc.Subscribe(t)
	d, err := f.db.SavePushDevice(context.Background(), store.PushDevice{Name: name, Endpoint: sub.Endpoint, P256dh: sub.P256dh, Auth: sub.Auth, PushOptions: o})
	if err != nil {
		t.Fatal(err)
	}
	return d, sub
}

// change sets a run's state and publishes run.changed, like the live view.
func (f *notifierFixture) change(id string, s conv.State, d *conv.Dialog) {
	f.runs.set(id, s, d)
	f.n.Publish(conv.Event{Type: conv.EventRunChanged, RunID: id, State: s})
}

// decisions collects the next n decisions, by device.
func (f *notifierFixture) decisions(t *testing.T, n int) map[string]Decision {
	t.Helper()
	out := map[string]Decision{}
	for range n {
		select {
		case d := <-f.dec:
			out[d.DeviceID] = d
		case <-time.After(20 * time.Second):
			t.Fatalf("got %d decisions; want %d: %+v", len(out), n, out)
		}
	}
	return out
}

// quiet proves nothing was decided for the events published so far: a
// sentinel run's change, which always decides, is handled after them.
// The sentinel decides once per device and pushes to those wanting
// blocked runs.
func (f *notifierFixture) quiet(t *testing.T, devices, pushes int) {
	t.Helper()
	f.change("sentinel", conv.StateQuestion, &conv.Dialog{ToolID: time.Now().String(), Kind: conv.DialogQuestion})
	for range devices {
		select {
		case d := <-f.dec:
			if d.RunID != "sentinel" {
				t.Fatalf("unexpected decision %+v", d)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the sentinel got no decision")
		}
	}
	for range pushes {
		got := <-f.svc.Received()
		var p Payload
		json.Unmarshal(got.Plaintext, &p)
		if p.RunID != "sentinel" {
			t.Fatalf("a push for %s arrived; want only the sentinel's", p.RunID)
		}
	}
}

// received reads the pushes that arrived and decrypts them by endpoint.
func (f *notifierFixture) received(t *testing.T, n int) map[string]Payload {
	t.Helper()
	out := map[string]Payload{}
	for range n {
		got := f.svc.Next(t, 20*time.Second)
		if got.Err != nil {
			t.Fatalf("push service: %v", got.Err)
		}
		var p Payload
		if err := json.Unmarshal(got.Plaintext, &p); err != nil {
			t.Fatal(err)
		}
		out[f.svc.Server.URL+got.Path] = p
	}
	return out
}

func question(id, text string) *conv.Dialog {
	return &conv.Dialog{ToolID: id, Kind: conv.DialogQuestion, Answerable: true, Questions: []conv.Question{{Question: text}}}
}

func TestNotifierBlockedAndTurnEnd(t *testing.T) {
	f := newNotifierFixture(t, nil)
	blockedOnly, subA := f.device(t, "phone", store.DefaultPushOptions)
	turnOnly, subB := f.device(t, "watch", store.PushOptions{TurnEnd: true})
	chatty, subC := f.device(t, "desk", store.PushOptions{Blocked: true, TurnEnd: true, IncludeContent: true})

	f.change("r1", conv.StateWorking, nil)
	f.quiet(t, 3, 2)

	// The run becomes blocked.
	f.change("r1", conv.StateQuestion, question("t1", "Which database?"))
	dec := f.decisions(t, 3)
	if dec[blockedOnly.ID].Outcome != Sent || dec[turnOnly.ID].Outcome != SkippedOption || dec[chatty.ID].Outcome != Sent {
		t.Fatalf("blocked decisions: %+v", dec)
	}
	got := f.received(t, 2)
	if p := got[subA.Endpoint]; p.Reason != ReasonBlocked || p.URL != "/runs/r1" || p.Body != "r1: a question is waiting" || p.Quiet {
		t.Fatalf("phone's push: got %+v; want blocked, no content", p)
	}
	if p := got[subC.Endpoint]; p.Title != "Title of r1" || p.Body != "Which database?" {
		t.Fatalf("desk's push: got %+v; want the question text", p)
	}
	if _, ok := got[subB.Endpoint]; ok {
		t.Fatal("the watch asked only for turn ends but got the blocked push")
	}

	// The same dialog seen again is no news.
	f.change("r1", conv.StateQuestion, question("t1", "Which database?"))
	f.quiet(t, 3, 2)

	// Answered, working, then the turn ends: a quiet push to who asked.
	f.change("r1", conv.StateWorking, nil)
	f.change("r1", conv.StateNeedsInput, nil)
	dec = f.decisions(t, 3)
	if dec[blockedOnly.ID].Outcome != SkippedOption || dec[turnOnly.ID].Outcome != Sent || dec[chatty.ID].Outcome != Sent {
		t.Fatalf("turn-end decisions: %+v", dec)
	}
	got = f.received(t, 2)
	if p := got[subB.Endpoint]; p.Reason != ReasonTurnEnd || !p.Quiet || p.Body != "r1: the agent finished its turn" {
		t.Fatalf("watch's push: got %+v; want a quiet turn end without content", p)
	}
	if p := got[subC.Endpoint]; p.Body != "last words of r1" {
		t.Fatalf("desk's turn-end push: got %+v; want the preview", p)
	}
	for _, d := range []store.PushDevice{blockedOnly, turnOnly} {
		got, _ := f.db.PushDevice(context.Background(), d.ID)
		if d.ID == turnOnly.ID && (got.LastPushAt == nil || got.LastError != "") {
			t.Errorf("%s: last push %v error %q; want a recorded success", d.Name, got.LastPushAt, got.LastError)
		}
	}
}

func TestNotifierPresenceSuppresses(t *testing.T) {
	f := newNotifierFixture(t, nil)
	phone, subPhone := f.device(t, "phone", store.DefaultPushOptions)
	desk, subDesk := f.device(t, "desk", store.DefaultPushOptions)

	f.n.Presence().Report(phone.ID, "r1", true) // the phone shows r1's chat
	f.n.Presence().Report(desk.ID, "r2", true)  // the desk shows another run
	f.change("r1", conv.StateQuestion, question("t1", "Q?"))
	dec := f.decisions(t, 2)
	if dec[phone.ID].Outcome != SkippedLooked || dec[desk.ID].Outcome != Sent {
		t.Fatalf("decisions: %+v; want the phone held back, the desk told", dec)
	}
	if got := f.received(t, 1); got[subDesk.Endpoint].RunID != "r1" {
		t.Fatalf("got %+v; want the desk's push", got)
	}

	// The phone's page goes hidden: the next dialog reaches it.
	f.n.Presence().Report(phone.ID, "r1", false)
	f.change("r1", conv.StateQuestion, question("t2", "Q2?"))
	dec = f.decisions(t, 2)
	if dec[phone.ID].Outcome != Sent {
		t.Fatalf("after the page went hidden: %+v", dec)
	}
	got := f.received(t, 2)
	if got[subPhone.Endpoint].RunID != "r1" {
		t.Fatalf("phone: got %+v", got)
	}
}

func TestNotifierPrunesGoneSubscriptions(t *testing.T) {
	f := newNotifierFixture(t, nil)
	gone, subGone := f.device(t, "old phone", store.DefaultPushOptions)
	missing, subMissing := f.device(t, "old laptop", store.DefaultPushOptions)
	alive, _ := f.device(t, "phone", store.DefaultPushOptions)
	f.svc.SetStatus(subGone, 410)
	f.svc.SetStatus(subMissing, 404)

	f.change("r1", conv.StateQuestion, question("t1", "Q?"))
	dec := f.decisions(t, 3)
	if dec[gone.ID].Outcome != Pruned || dec[missing.ID].Outcome != Pruned || dec[alive.ID].Outcome != Sent {
		t.Fatalf("decisions: %+v", dec)
	}
	left, err := f.db.PushDevices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0].ID != alive.ID {
		t.Fatalf("devices left: %+v; want only the live one", left)
	}

	// A service error is recorded, and the device kept.
	sub := f.svc.Subscribe(t)
	flaky, _ := f.db.SavePushDevice(context.Background(), store.PushDevice{Name: "flaky", Endpoint: sub.Endpoint, P256dh: sub.P256dh, Auth: sub.Auth, PushOptions: store.DefaultPushOptions})
	f.svc.SetStatus(sub, 500)
	f.change("r1", conv.StateQuestion, question("t2", "Q?"))
	dec = f.decisions(t, 2)
	if dec[flaky.ID].Outcome != Failed {
		t.Fatalf("decisions: %+v", dec)
	}
	d, err := f.db.PushDevice(context.Background(), flaky.ID)
	if err != nil || !strings.Contains(d.LastError, "had a problem of its own (HTTP 500)") {
		t.Fatalf("flaky device: %+v, %v; want it kept with a readable error", d, err)
	}
}

// After a restart lab must not push again for a dialog that was already
// waiting; a new one still pushes.
func TestNotifierPrimesFromCurrentState(t *testing.T) {
	f := newNotifierFixture(t, func(r *fakeRuns) {
		r.set("r1", conv.StateQuestion, question("t1", "old"))
		r.set("r2", conv.StateNeedsInput, nil)
	})
	f.device(t, "phone", store.PushOptions{Blocked: true, TurnEnd: true})
	f.change("r1", conv.StateQuestion, question("t1", "old"))
	f.change("r2", conv.StateNeedsInput, nil)
	f.quiet(t, 1, 1)
	f.change("r1", conv.StateQuestion, question("t9", "new"))
	if d := f.decisions(t, 1); len(d) != 1 {
		t.Fatal("a new dialog after priming got no push")
	}
	f.received(t, 1)
	// An ended run is forgotten.
	f.change("r1", conv.StateEnded, nil)
	f.quiet(t, 1, 1)
}

// Runs that appear after Start (a peer's, once the hub reaches it) are
// seeded: what waits then is not pushed as new; what comes later is.
func TestNotifierSeedsRunsThatAppearLater(t *testing.T) {
	f := newNotifierFixture(t, nil)
	f.device(t, "phone", store.DefaultPushOptions)
	f.runs.set("b~r1", conv.StateQuestion, question("t1", "waiting already"))
	f.n.Seed([]string{"b~r1"})
	f.change("b~r1", conv.StateQuestion, question("t1", "waiting already"))
	f.quiet(t, 1, 1)
	f.change("b~r1", conv.StateQuestion, question("t2", "new"))
	if d := f.decisions(t, 1); len(d) != 1 {
		t.Fatal("a new dialog after seeding got no decision")
	}
	if p := f.received(t, 1); len(p) != 1 {
		t.Fatal("a new dialog after seeding got no push")
	}
}

func TestNotifierTestPush(t *testing.T) {
	f := newNotifierFixture(t, nil)
	d, sub := f.device(t, "phone", store.PushOptions{}) // no options: a test push goes anyway
	f.n.Presence().Report(d.ID, "", true)
	if err := f.n.Test(context.Background(), d.ID); err != nil {
		t.Fatal(err)
	}
	p := f.received(t, 1)[sub.Endpoint]
	if p.Reason != ReasonTest || p.URL != "/settings" || p.Body != "Push works on phone." {
		t.Fatalf("test push: got %+v", p)
	}

	f.svc.SetStatus(sub, 503)
	if err := f.n.Test(context.Background(), d.ID); conv.KindOf(err) != conv.EUnavailable {
		t.Fatalf("refused test push: got %v; want unavailable", err)
	}
	f.svc.Next(t, 10*time.Second)
	f.svc.SetStatus(sub, 410)
	if err := f.n.Test(context.Background(), d.ID); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("gone test push: got %v; want conflict", err)
	}
	f.svc.Next(t, 10*time.Second)
	if _, err := f.db.PushDevice(context.Background(), d.ID); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("after gone: %v; want the device removed", err)
	}
	if err := f.n.Test(context.Background(), d.ID); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("unknown device: got %v; want not found", err)
	}
}
