package chat

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
	"lab/internal/tmux"
)

// TestAnswerStress answers many dialogs of mixed shapes, one after
// another, in long-lived runs of the real CLI, and checks every answer
// against the transcript's record: no answer may be recorded other than
// as lab meant it, and none may be refused. Half the dialogs are
// answered the moment their picker shows (the picker grace applies), half
// after the card has been read for a while (none does), so both paths of
// the player run. By default a few dialogs (part of the suite); the
// measurement of issue 23 answers 200:
//
//	LAB_STRESS_DIALOGS=200 go test ./internal/chat -run TestAnswerStress -v -timeout 2h
func TestAnswerStress(t *testing.T) {
	for i, s := range stressShapes {
		if s.name != stressOrder[i] {
			t.Fatalf("stressOrder names %q, which is no shape", stressOrder[i])
		}
	}
	stress(t, 8, stressShapes, func(s stressShape) stressCLI[stressShape] {
		return startRun(t, s.mode, "", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
	})
}

// stressCLI is one run of a CLI under a stress test of shapes S.
type stressCLI[S any] interface {
	// ask types s's prompt at the CLI's empty prompt and returns the
	// dialog it asks, once its picker shows.
	ask(s S) (*conv.Dialog, error)
	answerer() *Actor
	// recorded checks what the transcript recorded for d, answered with
	// a: done is false while it has recorded nothing yet.
	recorded(s S, d *conv.Dialog, a conv.Answer) (done bool, err error)
	screen() string
	stop()
}

// stressShaped is what a stress test needs of its shapes.
type stressShaped interface {
	label() string
	// second says the shape runs in the test's second CLI (plan mode).
	second() bool
	answerFor(d *conv.Dialog) conv.Answer
}

// stress answers LAB_STRESS_DIALOGS dialogs (n by default) of shapes,
// taken in turn, in two long-lived CLIs side by side (start starts one for
// its first shape), and fails unless every one was recorded as meant.
func stress[S stressShaped](t *testing.T, n int, shapes []S, start func(first S) stressCLI[S]) {
	if v, _ := strconv.Atoi(os.Getenv("LAB_STRESS_DIALOGS")); v > 0 {
		n = v
	}
	var lists [2][]S
	for i := 0; len(lists[0])+len(lists[1]) < n; i++ {
		s := shapes[i%len(shapes)]
		k := 0
		if s.second() {
			k = 1
		}
		lists[k] = append(lists[k], s)
	}
	var mu sync.Mutex
	var tally stressTally
	var wg sync.WaitGroup
	for _, list := range lists {
		if len(list) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := stressDialogs(list, start)
			mu.Lock()
			tally.add(got)
			mu.Unlock()
		}()
	}
	wg.Wait()
	tally.log(t)
	for _, note := range tally.notes {
		t.Log(note)
	}
	if tally.wrong > 0 || tally.conflict > 0 || tally.err > 0 || tally.n() != n {
		t.Fatalf("%d of %d dialogs not answered as meant", tally.n()-tally.ok, n)
	}
}

// stressDialogs answers list's dialogs, in order, in one CLI; a failed
// dialog ends it and the next one starts a fresh CLI. Every other dialog
// is answered after its card has been read a while.
func stressDialogs[S stressShaped](list []S, start func(first S) stressCLI[S]) stressTally {
	var tl stressTally
	var r stressCLI[S]
	for i, s := range list {
		fail := func(count *int, format string, args ...any) {
			*count++
			tl.notes = append(tl.notes, fmt.Sprintf("%s #%d: %s", s.label(), i, fmt.Sprintf(format, args...)))
			r.stop()
			r = nil
		}
		if r == nil {
			r = start(s)
		}
		d, err := r.ask(s)
		if err != nil {
			fail(&tl.err, "harness: %v\npane:\n%s", err, r.screen())
			continue
		}
		if i%2 == 1 {
			time.Sleep(700 * time.Millisecond) // the operator reads the card
		}
		a := s.answerFor(d)
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		err = r.answerer().Answer(ctx, a)
		cancel()
		call := time.Since(start)
		if err != nil {
			count := &tl.err
			if conv.KindOf(err) == conv.EConflict {
				count = &tl.conflict
			}
			fail(count, "%v\npane:\n%s", err, r.screen())
			continue
		}
		var verdict error
		returned := time.Now()
		if !pollEvery(60*time.Second, 10*time.Millisecond, func() bool {
			done, err := r.recorded(s, d, a)
			verdict = err
			return done
		}) {
			verdict = fmt.Errorf("Answer returned nil but the transcript recorded nothing")
		}
		if verdict != nil {
			fail(&tl.wrong, "%v", verdict)
			continue
		}
		tl.ok++
		tl.calls = append(tl.calls, call)
		tl.lag = append(tl.lag, time.Since(returned))
	}
	if r != nil {
		r.stop()
	}
	return tl
}

// stressShape is one kind of dialog of the stress test.
type stressShape struct {
	name, mode, prompt, marker string
	answer                     func(d *conv.Dialog) conv.Answer
	// check reads what the transcript recorded for d (an error while it
	// has not recorded it yet is retried).
	check func(t testing.TB, r *cliRun, d *conv.Dialog) (ok bool, err error)
}

// stressOrder is the order the stress test asks its shapes in: kinds
// alternate, so a few dialogs already mix them.
var stressOrder = []string{"single_option_first", "plan_approve_row0", "multi_two_in_chosen_order", "permission_allow",
	"form_single_and_multi", "plan_reject_feedback", "single_free_text", "permission_deny_feedback", "multi_with_free_text",
	"form3_mixed", "plan_approve_row1", "single_option_last", "multi_free_text_only"}

// stressShapes are the answer matrix's shapes, with the permission
// prompts of manual mode, in stressOrder.
var stressShapes = func() []stressShape {
	var all []stressShape
	for _, s := range shapes {
		mode := s.mode
		if mode == "" {
			mode = "manual"
		}
		all = append(all, stressShape{name: s.name, mode: mode, prompt: s.prompt, marker: s.marker, answer: s.answer,
			check: func(t testing.TB, r *cliRun, d *conv.Dialog) (bool, error) {
				res, ok := findResolution(t, r.transcriptPath(), d.ToolID)
				if !ok {
					return false, nil
				}
				return true, checkRecorded(t, s, res)
			}})
	}
	permission := func(name string, role conv.OptionRole, feedback, decision string) stressShape {
		return stressShape{name: name, mode: "manual", prompt: "lab:permission make a file", marker: "Do you want to proceed?",
			answer: func(d *conv.Dialog) conv.Answer {
				o := -1
				for i, op := range d.Permission.Options {
					if op.Role == role && o < 0 {
						o = i
					}
				}
				return conv.Answer{ToolID: d.ToolID, Option: &o, Feedback: feedback}
			},
			check: func(t testing.TB, r *cliRun, d *conv.Dialog) (bool, error) {
				dec, _, fb, ok := findDecision(t, r.transcriptPath(), d.ToolID)
				if !ok {
					return false, nil
				}
				if dec != decision || fb != feedback {
					return true, fmt.Errorf("recorded %s with %q; want %s with %q", dec, fb, decision, feedback)
				}
				return true, nil
			}}
	}
	all = append(all,
		permission("permission_allow", conv.RoleAllowOnce, "", "accept"),
		permission("permission_deny_feedback", conv.RoleDeny, "Use mkdir instead", "reject"))
	out := make([]stressShape, len(stressOrder))
	for i, name := range stressOrder {
		for _, s := range all {
			if s.name == name {
				out[i] = s
			}
		}
	}
	return out
}()

type stressTally struct {
	ok, conflict, wrong, err int
	calls                    []time.Duration // the answer calls
	lag                      []time.Duration // answer returned → the transcript recorded it
	notes                    []string
}

func (s *stressTally) log(t *testing.T) {
	t.Logf("%d dialogs: %d answered as meant, %d refused, %d wrong, %d harness errors; answer call p50 %v, p95 %v; "+
		"then the transcript's record p50 %v, p95 %v later (10 ms polls)",
		s.n(), s.ok, s.conflict, s.wrong, s.err,
		pct(s.calls, 50).Round(time.Millisecond), pct(s.calls, 95).Round(time.Millisecond),
		pct(s.lag, 50).Round(time.Millisecond), pct(s.lag, 95).Round(time.Millisecond))
}

// pollEvery polls cond every interval until it holds or timeout passes.
func pollEvery(timeout, interval time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(interval)
	}
	return true
}

func (s *stressTally) n() int { return s.ok + s.conflict + s.wrong + s.err }

func (s *stressTally) add(o stressTally) {
	s.ok += o.ok
	s.conflict += o.conflict
	s.wrong += o.wrong
	s.err += o.err
	s.calls = append(s.calls, o.calls...)
	s.lag = append(s.lag, o.lag...)
	s.notes = append(s.notes, o.notes...)
}

func (s stressShape) label() string                        { return s.name }
func (s stressShape) second() bool                         { return s.mode == "plan" }
func (s stressShape) answerFor(d *conv.Dialog) conv.Answer { return s.answer(d) }

func (r *cliRun) answerer() *Actor { return r.actor }
func (r *cliRun) screen() string   { return r.rig.Pane(r.target) }

func (r *cliRun) recorded(s stressShape, d *conv.Dialog, _ conv.Answer) (bool, error) {
	return s.check(r.t, r, d)
}

// ask types s's prompt once the CLI waits at an empty prompt (in plan
// mode again for a plan: an approved plan leaves it), and returns the
// dialog it asks, once its picker shows.
func (r *cliRun) ask(s stressShape) (*conv.Dialog, error) {
	setMode := func() error {
		if s.mode != "plan" {
			return nil
		}
		return r.backToPlanMode()
	}
	return askAt(r.live, r.actor, r.screen, setMode, s.prompt, func(d *conv.Dialog) bool {
		return (d.Kind != conv.DialogPermission || len(d.Permission.Options) > 0) && strings.Contains(r.screen(), s.marker)
	})
}

// askAt waits until the run (its live view, actor and screen) waits at
// an empty prompt, sets its mode, types prompt and returns the new dialog
// once shown accepts it.
func askAt(l *live, a *Actor, screen func() string, setMode func() error, prompt string, shown func(d *conv.Dialog) bool) (*conv.Dialog, error) {
	seen := map[string]bool{}
	if d, _ := l.current(); d != nil {
		seen[d.ToolID] = true
	}
	if !waitFor(120*time.Second, func() bool {
		p, st := l.current()
		box, ok := a.drv.Prompt(screen())
		return p == nil && (st == conv.StateNeedsInput || st == conv.StateIdle) && ok && box.Empty()
	}) {
		return nil, fmt.Errorf("the CLI did not come back to an empty prompt")
	}
	if err := setMode(); err != nil {
		return nil, err
	}
	if err := a.Reply(context.Background(), prompt); err != nil {
		return nil, fmt.Errorf("typing %q: %w", prompt, err)
	}
	var d *conv.Dialog
	if !waitFor(120*time.Second, func() bool {
		d, _ = l.current()
		return d != nil && !seen[d.ToolID] && shown(d)
	}) {
		return nil, fmt.Errorf("no dialog shown for %q", prompt)
	}
	return d, nil
}

// backToPlanMode cycles the permission mode with shift+tab until the
// status line says plan mode.
func (r *cliRun) backToPlanMode() error {
	return cycleMode(r.rig.Tmux, r.target, 8, func(line string) bool { return strings.Contains(line, "plan mode on") })
}

// cycleMode presses shift+tab in target until the status line (the
// pane's last line) passes want, at most tries times. It judges the line
// only once it has stayed the same a moment, so a press the CLI takes
// late is never followed by another that cycles past the mode, and after
// a press waits for the line to change (the CLI drops a press that comes
// too soon).
func cycleMode(tm *tmux.Server, target string, tries int, want func(line string) bool) error {
	status := func() string {
		c, _ := tm.Capture(context.Background(), target)
		return statusLine(c)
	}
	for i := 0; ; i++ {
		line := steady(status)
		if want(line) {
			return nil
		}
		if i == tries {
			return fmt.Errorf("could not cycle to the wanted mode (status line %q)", line)
		}
		if err := tm.SendKey(context.Background(), target, "BTab"); err != nil {
			return err
		}
		waitFor(10*time.Second, func() bool { return status() != line })
	}
}

// steady returns what read returns once it has not changed for 300 ms
// (at most 10 s).
func steady(read func() string) string {
	line, since := read(), time.Now()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && time.Since(since) < 300*time.Millisecond; {
		time.Sleep(50 * time.Millisecond)
		if l := read(); l != line {
			line, since = l, time.Now()
		}
	}
	return line
}
