package chat

import (
	"context"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"lab/internal/agent"
	"lab/internal/claude"
	"lab/internal/conv"
)

func testOpts() ActorOptions {
	return ActorOptions{
		PickerGrace:   -1,
		CheckTimeout:  300 * time.Millisecond,
		CheckPoll:     2 * time.Millisecond,
		SettleTimeout: 500 * time.Millisecond,
		Logger:        slog.New(slog.DiscardHandler),
	}
}

func options(labels ...string) []conv.Option {
	var o []conv.Option
	for _, l := range labels {
		o = append(o, conv.Option{Label: l, Description: "about " + l})
	}
	return o
}

var (
	tqDB    = conv.Question{Question: "Which database should we use?", Header: "Database", Options: options("SQLite", "PostgreSQL", "MySQL")}
	tqTops  = conv.Question{Question: "Which toppings do you want?", Header: "Toppings", MultiSelect: true, Options: options("Cheese", "Olives", "Mushrooms", "Peppers")}
	tqColor = conv.Question{Question: "Which color do you prefer?", Header: "Color", Options: options("Red", "Blue", "Green")}
	tqSize  = conv.Question{Question: "Which sizes should we stock?", Header: "Size", MultiSelect: true, Options: options("Small", "Medium", "Large")}
	tqCrust = conv.Question{Question: "Which crust do you like?", Header: "Crust", Options: options("Thin", "Thick")}
)

func questionDialog(id string, qs ...conv.Question) *conv.Dialog {
	return &conv.Dialog{ToolID: id, Kind: conv.DialogQuestion, Questions: qs, Answerable: true}
}

func planDialog(id string) *conv.Dialog {
	return &conv.Dialog{ToolID: id, Kind: conv.DialogPlan, Plan: "# Plan\n", Answerable: true}
}

func qa(chosen ...int) conv.QuestionAnswer { return conv.QuestionAnswer{Chosen: chosen} }
func qaText(text string, chosen ...int) conv.QuestionAnswer {
	return conv.QuestionAnswer{Chosen: chosen, OtherText: text}
}
func questionsAnswer(id string, qas ...conv.QuestionAnswer) conv.Answer {
	return conv.Answer{ToolID: id, Answers: qas}
}
func planAnswer(id string, option int, feedback string) conv.Answer {
	return conv.Answer{ToolID: id, Option: &option, Feedback: feedback}
}

// TestActorAnswersEveryShape plays each shape's recipe into the fake TUI
// and checks what it recorded, the intent and the keys.
func TestActorAnswersEveryShape(t *testing.T) {
	cases := []struct {
		name    string
		d       *conv.Dialog
		a       conv.Answer
		result  string
		records map[string]string
	}{
		{"single option 0", questionDialog("t1", tqDB), questionsAnswer("t1", qa(0)), "answered", map[string]string{tqDB.Question: "SQLite"}},
		{"single last", questionDialog("t1", tqDB), questionsAnswer("t1", qa(2)), "answered", map[string]string{tqDB.Question: "MySQL"}},
		{"single free text", questionDialog("t1", tqDB), questionsAnswer("t1", qaText("DuckDB, embedded")), "answered", map[string]string{tqDB.Question: "DuckDB, embedded"}},
		{"multi in chosen order", questionDialog("t1", tqTops), questionsAnswer("t1", qa(3, 1)), "answered", map[string]string{tqTops.Question: "Peppers, Olives"}},
		{"multi with text", questionDialog("t1", tqTops), questionsAnswer("t1", qaText("no anchovies", 1, 0)), "answered", map[string]string{tqTops.Question: "Olives, Cheese, no anchovies"}},
		{"multi text only", questionDialog("t1", tqTops), questionsAnswer("t1", qaText("anchovies")), "answered", map[string]string{tqTops.Question: "anchovies"}},
		{"form", questionDialog("t1", tqColor, tqSize), questionsAnswer("t1", qa(1), qa(2, 0)), "answered",
			map[string]string{tqColor.Question: "Blue", tqSize.Question: "Large, Small"}},
		{"form3", questionDialog("t1", tqColor, tqSize, tqCrust), questionsAnswer("t1", qaText("teal"), qaText("tiny", 1), qa(1)), "answered",
			map[string]string{tqColor.Question: "teal", tqSize.Question: "Medium, tiny", tqCrust.Question: "Thick"}},
		{"plan approve 0", planDialog("t1"), planAnswer("t1", 0, ""), "approved", map[string]string{}},
		{"plan approve 1", planDialog("t1"), planAnswer("t1", 1, ""), "approved", map[string]string{}},
		{"plan reject", planDialog("t1"), planAnswer("t1", 2, "add tests first"), "rejected: add tests first", map[string]string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeTUI(c.d)
			in := NewIntents()
			act := NewActor(f, claudeDriver("2.1.328"), f.pending, in, testOpts())
			if err := act.Answer(context.Background(), c.a); err != nil {
				t.Fatalf("Answer: %v", err)
			}
			if f.result != c.result {
				t.Errorf("result = %q; want %q", f.result, c.result)
			}
			if !reflect.DeepEqual(f.records, c.records) {
				t.Errorf("records = %v; want %v", f.records, c.records)
			}
			steps, _ := claude.Recipe(c.d, c.a, claude.PlanPicker("2.1.328"))
			var want []string
			for _, s := range steps {
				switch s.Kind {
				case agent.StepKey:
					want = append(want, s.Key)
				case agent.StepPaste:
					want = append(want, "paste:"+s.Text)
				}
			}
			if got := f.sent(); !reflect.DeepEqual(got, want) {
				t.Errorf("keys = %q; want %q", got, want)
			}
			got, ok := in.Lookup("t1")
			d := *c.d
			d.PlanRows = claude.PlanPicker("2.1.328").Rows
			if wantO := claude.IntendedOutcome(&d, c.a); !ok || !reflect.DeepEqual(got, wantO) {
				t.Errorf("intent = %+v, %v; want %+v", got, ok, wantO)
			}
			// A second answer for the same dialog is a conflict.
			f.result = ""
			err := act.Answer(context.Background(), c.a)
			if conv.KindOf(err) != conv.EConflict {
				t.Errorf("second answer: %v; want a conflict", err)
			}
		})
	}
}

// TestActorRefusesWithoutKeys: every guard and validation failure happens
// before the first key.
func TestActorRefusesWithoutKeys(t *testing.T) {
	resolved := questionDialog("t1", tqDB)
	resolved.Outcome = &conv.Outcome{Dismissed: true}
	cases := []struct {
		name string
		d    *conv.Dialog
		a    conv.Answer
		kind conv.ErrorKind
	}{
		{"no pending dialog", nil, questionsAnswer("t1", qa(0)), conv.EConflict},
		{"stale tool id", questionDialog("t2", tqDB), questionsAnswer("t1", qa(0)), conv.EConflict},
		{"resolved", resolved, questionsAnswer("t1", qa(0)), conv.EConflict},
		{"no tool id", questionDialog("t1", tqDB), questionsAnswer("", qa(0)), conv.EInvalid},
		{"index out of range", questionDialog("t1", tqDB), questionsAnswer("t1", qa(3)), conv.EInvalid},
		{"duplicate", questionDialog("t1", tqTops), questionsAnswer("t1", qa(1, 1)), conv.EInvalid},
		{"multi on single", questionDialog("t1", tqDB), questionsAnswer("t1", qa(0, 1)), conv.EInvalid},
		{"newline in free text", questionDialog("t1", tqDB), questionsAnswer("t1", qaText("a\nb")), conv.EInvalid},
		{"escape in free text", questionDialog("t1", tqDB), questionsAnswer("t1", qaText("a\x1b[B")), conv.EInvalid},
		{"wrong answer count", questionDialog("t1", tqColor, tqSize), questionsAnswer("t1", qa(0)), conv.EInvalid},
		{"plan feedback missing", planDialog("t1"), planAnswer("t1", 2, ""), conv.EInvalid},
		{"plan option out of range", planDialog("t1"), planAnswer("t1", 3, ""), conv.EInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeTUI(c.d)
			if c.d != nil && c.d.Outcome != nil {
				f.result = "answered"
			}
			in := NewIntents()
			act := NewActor(f, claudeDriver("2.1.328"), f.pending, in, testOpts())
			err := act.Answer(context.Background(), c.a)
			if k := conv.KindOf(err); k != c.kind {
				t.Fatalf("got %v (%s); want %s", err, k, c.kind)
			}
			if keys := f.sent(); len(keys) != 0 {
				t.Errorf("keys sent: %q; want none", keys)
			}
			if in.Len() != 0 {
				t.Errorf("%d intents recorded; want none", in.Len())
			}
		})
	}
}

// TestActorStopsBeforeCommitting: when the pane does not follow (a key
// lost, a hung TUI, a cursor moved at the terminal) the actor stops at the
// next checkpoint and never sends the committing key.
func TestActorStopsBeforeCommitting(t *testing.T) {
	cases := []struct {
		name  string
		d     *conv.Dialog
		a     conv.Answer
		setup func(f *fakeTUI)
		keys  []string // exactly the keys sent before giving up
	}{
		{"lost Down", questionDialog("t1", tqDB), questionsAnswer("t1", qa(2)),
			func(f *fakeTUI) { f.drop = func(n int, k string) bool { return n == 2 } },
			[]string{"Down", "Down"}},
		{"lost Space", questionDialog("t1", tqTops), questionsAnswer("t1", qa(0, 1)),
			func(f *fakeTUI) { f.drop = func(n int, k string) bool { return k == "Space" && n == 1 } },
			[]string{"Space", "Down", "Space", "Down", "Down", "Down", "Down"}},
		{"hung TUI", questionDialog("t1", tqColor, tqSize), questionsAnswer("t1", qa(1), qa(0)),
			func(f *fakeTUI) { f.deaf = true },
			[]string{"Down"}},
		{"box ticked at the terminal", questionDialog("t1", tqTops), questionsAnswer("t1", qa(0)),
			func(f *fakeTUI) { f.ticked[0] = []int{2} },
			nil},
		{"free text typed at the terminal", questionDialog("t1", tqDB), questionsAnswer("t1", qa(0)),
			func(f *fakeTUI) { f.other[0] = "typed"; f.cursor = 3 },
			nil},
		{"form already on question 2", questionDialog("t1", tqColor, tqSize), questionsAnswer("t1", qa(1), qa(0)),
			func(f *fakeTUI) { f.q = 1 },
			nil},
		{"picker answered at the terminal meanwhile", planDialog("t1"), planAnswer("t1", 1, ""),
			func(f *fakeTUI) {
				f.onKey = func(f *fakeTUI, k string) { f.cursor = 2 } // someone else pressed Down
			},
			[]string{"Down"}},
		{"free text mangled", questionDialog("t1", tqDB), questionsAnswer("t1", qaText("duckdb")),
			func(f *fakeTUI) { f.other[0] = "x" },
			[]string{"Down", "Down", "Down", "paste:duckdb"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeTUI(c.d)
			c.setup(f)
			in := NewIntents()
			act := NewActor(f, claudeDriver("2.1.328"), f.pending, in, testOpts())
			err := act.Answer(context.Background(), c.a)
			if conv.KindOf(err) != conv.EConflict {
				t.Fatalf("got %v; want a conflict", err)
			}
			if got := f.sent(); !reflect.DeepEqual(got, c.keys) {
				t.Errorf("keys = %q; want %q", got, c.keys)
			}
			if f.result != "" {
				t.Errorf("the dialog resolved as %q; want it still open", f.result)
			}
			if in.Len() != 0 {
				t.Error("the intent of an abandoned answer was kept")
			}
		})
	}
}

// TestActorRewindsAMovedCursor: a picker whose cursor was moved at the
// terminal, and nothing else, is answered from row 1 after climbing back
// exactly as far as the pane shows.
func TestActorRewindsAMovedCursor(t *testing.T) {
	cases := []struct {
		name   string
		d      *conv.Dialog
		a      conv.Answer
		cursor int
		keys   []string
		record string
	}{
		{"single on row 3", questionDialog("t1", tqDB), questionsAnswer("t1", qa(1)), 2,
			[]string{"Up", "Up", "Down", "Enter"}, "PostgreSQL"},
		{"single on Chat about this", questionDialog("t1", tqDB), questionsAnswer("t1", qa(0)), 4,
			[]string{"Up", "Up", "Up", "Up", "Enter"}, "SQLite"},
		{"multi on Submit", questionDialog("t1", tqTops), questionsAnswer("t1", qa(1)), 5,
			[]string{"Up", "Up", "Up", "Up", "Up", "Down", "Space", "Down", "Down", "Down", "Down", "Enter", "Enter"}, "Olives"},
		{"plan on row 2", planDialog("t1"), planAnswer("t1", 0, ""), 1,
			[]string{"Up", "Enter"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeTUI(c.d)
			f.cursor = c.cursor
			act := NewActor(f, claudeDriver("2.1.328"), f.pending, NewIntents(), testOpts())
			if err := act.Answer(context.Background(), c.a); err != nil {
				t.Fatal(err)
			}
			if got := f.sent(); !reflect.DeepEqual(got, c.keys) {
				t.Errorf("keys = %q; want %q", got, c.keys)
			}
			if c.record != "" && f.records[c.d.Questions[0].Question] != c.record {
				t.Errorf("records = %v; want %q", f.records, c.record)
			}
			if c.d.Kind == conv.DialogPlan && f.result != "approved" {
				t.Errorf("result = %q; want approved", f.result)
			}
		})
	}
}

// TestActorPickerGrace: the real CLI drops an Enter that comes right after
// a picker appears (the fake: after any screen appears). With the graces
// the answer lands; without them the dropped commit is reported as a
// conflict (never as success), nothing is remembered as answered, and a
// retry works.
func TestActorPickerGrace(t *testing.T) {
	cases := []struct {
		name string
		d    *conv.Dialog
		a    conv.Answer
	}{
		{"single first option", questionDialog("t1", tqDB), questionsAnswer("t1", qa(0))},
		{"form, option 0 twice", questionDialog("t1", tqColor, tqCrust), questionsAnswer("t1", qa(0), qa(0))},
		{"plan first row", planDialog("t1"), planAnswer("t1", 0, "")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeTUI(c.d)
			f.guard = 80 * time.Millisecond
			opts := testOpts()
			opts.PickerGrace = 120 * time.Millisecond
			opts.ScreenGrace = 120 * time.Millisecond
			act := NewActor(f, claudeDriver("2.1.328"), f.pending, NewIntents(), opts)
			if err := act.Answer(context.Background(), c.a); err != nil {
				t.Fatalf("with the grace: %v", err)
			}
			if f.result == "" {
				t.Fatal("with the grace: the dialog did not resolve")
			}
		})
	}
	t.Run("without the grace the dropped Enter is a conflict", func(t *testing.T) {
		f := newFakeTUI(questionDialog("t1", tqDB))
		f.guard = time.Hour
		in := NewIntents()
		act := NewActor(f, claudeDriver("2.1.328"), f.pending, in, testOpts())
		err := act.Answer(context.Background(), questionsAnswer("t1", qa(0)))
		if conv.KindOf(err) != conv.EConflict || !strings.Contains(err.Error(), "did not take the answer") {
			t.Fatalf("got %v; want a conflict saying the CLI did not take the answer", err)
		}
		if in.Len() != 0 {
			t.Error("the intent of a dropped answer was kept")
		}
		f.mu.Lock()
		f.guard = 0
		f.mu.Unlock()
		if err := act.Answer(context.Background(), questionsAnswer("t1", qa(0))); err != nil {
			t.Fatalf("retry: %v; want it to land", err)
		}
		if f.records[tqDB.Question] != "SQLite" {
			t.Errorf("records = %v", f.records)
		}
	})
}

// TestActorConcurrentAnswers: two answers at once — exactly one lands.
func TestActorConcurrentAnswers(t *testing.T) {
	for round := 0; round < 20; round++ {
		f := newFakeTUI(questionDialog("t1", tqTops))
		act := NewActor(f, claudeDriver("2.1.328"), f.pending, NewIntents(), testOpts())
		answers := []conv.Answer{questionsAnswer("t1", qa(0)), questionsAnswer("t1", qa(3, 2))}
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i := range answers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = act.Answer(context.Background(), answers[i])
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case conv.KindOf(err) != conv.EConflict:
				t.Fatalf("round %d: %v; want nil or a conflict", round, err)
			}
		}
		if ok != 1 {
			t.Fatalf("round %d: %d answers landed (%v); want exactly 1", round, ok, errs)
		}
		rec := f.records[tqTops.Question]
		if rec != "Cheese" && rec != "Peppers, Mushrooms" {
			t.Fatalf("round %d: recorded %q; want one whole answer", round, rec)
		}
		if n := strings.Count(strings.Join(f.sent(), " "), "Enter"); n != 2 {
			t.Fatalf("round %d: %d Enters; want 2 (Submit, Submit answers) from one answer", round, n)
		}
	}
}

func TestReply(t *testing.T) {
	t.Run("multi-line text is one message", func(t *testing.T) {
		f := newFakeTUI(nil)
		act := NewActor(f, claudeDriver("2.1.328"), f.pending, nil, testOpts())
		text := "line one\r\nline two\n\twith a tab"
		if err := act.Reply(context.Background(), text); err != nil {
			t.Fatal(err)
		}
		want := []string{"line one\nline two\n\twith a tab"}
		if !reflect.DeepEqual(f.submitted, want) {
			t.Errorf("submitted %q; want %q", f.submitted, want)
		}
		if got := f.sent(); !reflect.DeepEqual(got, []string{"paste:" + want[0], "Enter"}) {
			t.Errorf("keys = %q", got)
		}
	})
	t.Run("a lost Enter is sent again", func(t *testing.T) {
		f := newFakeTUI(nil)
		f.enterLost = 1
		act := NewActor(f, claudeDriver("2.1.328"), f.pending, nil, testOpts())
		if err := act.Reply(context.Background(), "hello"); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(f.submitted, []string{"hello"}) {
			t.Errorf("submitted %q", f.submitted)
		}
	})
	t.Run("refused while a dialog is pending", func(t *testing.T) {
		f := newFakeTUI(questionDialog("t1", tqDB))
		act := NewActor(f, claudeDriver("2.1.328"), f.pending, nil, testOpts())
		if err := act.Reply(context.Background(), "hello"); conv.KindOf(err) != conv.EConflict {
			t.Fatalf("got %v; want a conflict", err)
		}
		if len(f.sent()) != 0 {
			t.Errorf("keys sent: %q", f.sent())
		}
	})
	t.Run("refused when the prompt holds typed text", func(t *testing.T) {
		f := newFakeTUI(nil)
		f.prompt = "half typed"
		act := NewActor(f, claudeDriver("2.1.328"), f.pending, nil, testOpts())
		if err := act.Reply(context.Background(), "hello"); conv.KindOf(err) != conv.EConflict {
			t.Fatalf("got %v; want a conflict", err)
		}
		if len(f.sent()) != 0 {
			t.Errorf("keys sent: %q", f.sent())
		}
	})
	t.Run("no Enter when the paste does not show", func(t *testing.T) {
		f := newFakeTUI(nil)
		f.deaf = true
		act := NewActor(f, claudeDriver("2.1.328"), f.pending, nil, testOpts())
		if err := act.Reply(context.Background(), "hello"); conv.KindOf(err) != conv.EConflict {
			t.Fatalf("got %v; want a conflict", err)
		}
		if got := f.sent(); !reflect.DeepEqual(got, []string{"paste:hello"}) {
			t.Errorf("keys = %q; want only the paste", got)
		}
	})
	t.Run("bad text sends nothing", func(t *testing.T) {
		for _, c := range []struct {
			text string
			kind conv.ErrorKind
		}{
			{"", conv.EInvalid},
			{" \n\t ", conv.EInvalid},
			{"hi\x1b[201~rm -rf", conv.EInvalid},
			{"bell\a", conv.EInvalid},
			{"del\x7f", conv.EInvalid},
			{"bad \xff utf8", conv.EInvalid},
			{strings.Repeat("x", DefaultMaxReply+1), conv.ETooLarge},
		} {
			f := newFakeTUI(nil)
			act := NewActor(f, claudeDriver("2.1.328"), f.pending, nil, testOpts())
			if err := act.Reply(context.Background(), c.text); conv.KindOf(err) != c.kind {
				t.Errorf("Reply(%.20q) = %v; want %s", c.text, err, c.kind)
			}
			if len(f.sent()) != 0 {
				t.Errorf("Reply(%.20q) sent %q", c.text, f.sent())
			}
		}
	})
}

// TestReplyWithUploads: images are attached by pasting their paths, each
// checked to show as an attachment before the text is pasted; other files
// are named on lines of the text; and when the CLI does not take an image,
// the box is emptied and nothing is submitted.
func TestReplyWithUploads(t *testing.T) {
	shot := conv.Upload{ID: "a", MediaType: "image/png", Path: "/s/runs/r/uploads/0123456789abcdef-shot.png"}
	photo := conv.Upload{ID: "b", MediaType: "image/jpeg", Path: "/s/runs/r/uploads/fedcba9876543210-photo.jpg"}
	notes := conv.Upload{ID: "c", MediaType: "text/plain", Path: "/s/runs/r/uploads/00112233445566aa-notes.txt"}
	t.Run("images, then text with a file", func(t *testing.T) {
		f := newFakeTUI(nil)
		act := NewActor(f, claudeDriver("2.1.332"), f.pending, nil, testOpts())
		if err := act.Reply(context.Background(), "what is this?", shot, notes, photo); err != nil {
			t.Fatal(err)
		}
		text := "what is this?\n\n[Attached file: " + notes.Path + "]"
		want := []string{"paste:" + shot.Path, "paste:" + photo.Path, "paste:" + text, "Enter"}
		if got := f.sent(); !reflect.DeepEqual(got, want) {
			t.Fatalf("keys %q;\nwant %q", got, want)
		}
		if len(f.submitted) != 1 || f.submitted[0] != "[Image #1] [Image #2] "+text {
			t.Fatalf("submitted %q", f.submitted)
		}
	})
	t.Run("images alone", func(t *testing.T) {
		f := newFakeTUI(nil)
		act := NewActor(f, claudeDriver("2.1.332"), f.pending, nil, testOpts())
		if err := act.Reply(context.Background(), "", shot); err != nil {
			t.Fatal(err)
		}
		if got := f.sent(); !reflect.DeepEqual(got, []string{"paste:" + shot.Path, "Enter"}) || len(f.submitted) != 1 {
			t.Fatalf("keys %q, submitted %q; want the path pasted and submitted", got, f.submitted)
		}
	})
	t.Run("a file alone", func(t *testing.T) {
		f := newFakeTUI(nil)
		act := NewActor(f, claudeDriver("2.1.332"), f.pending, nil, testOpts())
		if err := act.Reply(context.Background(), " ", notes); err != nil {
			t.Fatal(err)
		}
		if want := []string{"[Attached file: " + notes.Path + "]"}; !reflect.DeepEqual(f.submitted, want) {
			t.Fatalf("submitted %q; want %q", f.submitted, want)
		}
	})
	t.Run("an image the CLI does not take leaves nothing", func(t *testing.T) {
		f := newFakeTUI(nil)
		f.noImages = true
		opts := testOpts()
		opts.CheckTimeout = 200 * time.Millisecond
		act := NewActor(f, claudeDriver("2.1.332"), f.pending, nil, opts)
		err := act.Reply(context.Background(), "look", shot)
		if conv.KindOf(err) != conv.EConflict || !strings.Contains(conv.MessageOf(err), "attachments") {
			t.Fatalf("got %v; want a conflict about the attachments", err)
		}
		if want := []string{"paste:" + shot.Path, "Escape", "Escape"}; !reflect.DeepEqual(f.sent(), want) {
			t.Fatalf("keys %q; want the paste, then the box emptied: %q", f.sent(), want)
		}
		if f.prompt != "" || len(f.submitted) != 0 {
			t.Fatalf("prompt %q, submitted %q; want nothing left and nothing sent", f.prompt, f.submitted)
		}
	})
	t.Run("refused while a dialog waits: nothing typed", func(t *testing.T) {
		f := newFakeTUI(questionDialog("t1", tqDB))
		act := NewActor(f, claudeDriver("2.1.332"), f.pending, nil, testOpts())
		if err := act.Reply(context.Background(), "look", shot); conv.KindOf(err) != conv.EConflict || len(f.sent()) != 0 {
			t.Fatalf("got %v, keys %q; want a conflict, nothing typed", err, f.sent())
		}
	})
}

func TestInterrupt(t *testing.T) {
	f := newFakeTUI(questionDialog("t1", tqDB))
	act := NewActor(f, claudeDriver("2.1.328"), f.pending, nil, testOpts())
	if err := act.Interrupt(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := f.sent(); !reflect.DeepEqual(got, []string{"Escape"}) {
		t.Errorf("keys = %q; want Escape", got)
	}
	if f.result != "declined" {
		t.Errorf("result = %q; want the picker declined", f.result)
	}

	// Interrupt waits for the run's lock; a caller may give up.
	if err := act.acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := act.Interrupt(ctx); conv.KindOf(err) != conv.EUnavailable {
		t.Errorf("Interrupt while locked = %v; want unavailable", err)
	}
	act.release()
	if got := f.sent(); len(got) != 1 {
		t.Errorf("keys = %q; the waiting interrupt must not have pressed anything", got)
	}
}

func TestIntents(t *testing.T) {
	in := newIntents(3)
	o := &conv.Outcome{Results: []conv.QuestionResult{{Question: "q", Chosen: []string{"a"}}}}
	in.Record("t1", o)
	o.Results[0].Chosen[0] = "mutated"
	got, ok := in.Lookup("t1")
	if !ok || got.Results[0].Chosen[0] != "a" {
		t.Fatalf("Lookup = %+v, %v; want the recorded copy", got, ok)
	}
	got.Results[0].Chosen[0] = "mutated"
	if again, _ := in.Lookup("t1"); again.Results[0].Chosen[0] != "a" {
		t.Error("Lookup handed out the stored outcome")
	}
	in.Record("t2", &conv.Outcome{Approved: true})
	in.Record("t3", &conv.Outcome{Approved: true})
	in.Record("t1", &conv.Outcome{Dismissed: true}) // refresh t1: now newest
	in.Record("t4", &conv.Outcome{Approved: true})  // evicts t2, the oldest
	if _, ok := in.Lookup("t2"); ok {
		t.Error("t2 survived eviction")
	}
	if o, ok := in.Lookup("t1"); !ok || !o.Dismissed {
		t.Errorf("t1 = %+v, %v; want the re-recorded intent", o, ok)
	}
	if in.Len() != 3 {
		t.Errorf("Len = %d; want 3", in.Len())
	}
	in.Forget("t1")
	if _, ok := in.Lookup("t1"); ok {
		t.Error("t1 survived Forget")
	}
	in.Record("t5", nil)
	if _, ok := in.Lookup("t5"); ok {
		t.Error("a nil intent was recorded")
	}
}
