package chat

import (
	"context"
	"reflect"
	"testing"
	"time"

	"lab/internal/conv"
)

// TestActorSendsKeyRunsInOneBurst: the keys between two checkpoints go to
// the pane in one call, pastes on their own, and the committing key alone
// (so a checkpoint comes right before it); with KeyDelay set, one key per
// call as before.
func TestActorSendsKeyRunsInOneBurst(t *testing.T) {
	d := questionDialog("t1", tqTops)
	a := questionsAnswer("t1", qaText("no anchovies", 1, 0))
	f := newFakeTUI(d)
	act := NewActor(f, claudeDriver("2.1.328"), f.pending, NewIntents(), testOpts())
	if err := act.Answer(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"Down"},        // to Olives
		{"Space", "Up"}, // tick it, on to Cheese
		{"Space", "Down", "Down", "Down", "Down"}, // tick it, on to the free-text row
		{"paste:no anchovies"},
		{"Down"},  // to Submit
		{"Enter"}, // to the review
		{"Enter"}, // Submit answers: the commit, alone
	}
	if got := f.sentBursts(); !reflect.DeepEqual(got, want) {
		t.Errorf("bursts = %q; want %q", got, want)
	}
	if f.records[tqTops.Question] != "Olives, Cheese, no anchovies" {
		t.Errorf("records = %v", f.records)
	}

	f = newFakeTUI(d)
	opts := testOpts()
	opts.KeyDelay = time.Millisecond
	act = NewActor(f, claudeDriver("2.1.328"), f.pending, NewIntents(), opts)
	if err := act.Answer(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	for _, b := range f.sentBursts() {
		if len(b) != 1 {
			t.Fatalf("paced keys went together: %q", f.sentBursts())
		}
	}
}

// TestActorGraceCountsFromShown: a picker the live view saw long ago
// needs no grace before the key that acts on it; a picker nobody saw
// before the answer waits it out, and a screen the answer itself brings
// up (a form's next question) waits ScreenGrace. A grace here is an hour,
// so waiting is the answer running into its deadline with nothing
// committed.
func TestActorGraceCountsFromShown(t *testing.T) {
	long := time.Now().Add(-2 * time.Hour)
	cases := []struct {
		name   string
		d      *conv.Dialog
		a      conv.Answer
		shown  time.Time
		screen time.Duration // ScreenGrace
		lands  bool
	}{
		{"single, shown long ago", questionDialog("t1", tqDB), questionsAnswer("t1", qa(1)), long, 0, true},
		{"plan, shown long ago", planDialog("t1"), planAnswer("t1", 1, ""), long, 0, true},
		{"single, never seen before the answer", questionDialog("t1", tqDB), questionsAnswer("t1", qa(1)), time.Time{}, 0, false},
		{"form: the second question is new, no screen grace", questionDialog("t1", tqColor, tqCrust), questionsAnswer("t1", qa(1), qa(0)), long, 0, true},
		{"form: the second question is new, a screen grace", questionDialog("t1", tqColor, tqCrust), questionsAnswer("t1", qa(1), qa(0)), long, time.Hour, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.d.Clone()
			d.Shown = c.shown
			f := newFakeTUI(d)
			opts := testOpts()
			opts.PickerGrace = time.Hour
			opts.ScreenGrace = c.screen
			in := NewIntents()
			act := NewActor(f, claudeDriver("2.1.328"), f.pending, in, opts)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			err := act.Answer(ctx, c.a)
			if c.lands {
				if err != nil || f.result == "" {
					t.Fatalf("Answer = %v, result %q; want it answered without waiting", err, f.result)
				}
				return
			}
			if conv.KindOf(err) != conv.EUnavailable || f.result != "" || in.Len() != 0 {
				t.Fatalf("Answer = %v, result %q, %d intents; want it cancelled while waiting, nothing committed", err, f.result, in.Len())
			}
		})
	}
}
