package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lab/internal/agent"
	"lab/internal/codex"
	"lab/internal/codextest"
	"lab/internal/conv"
	"lab/internal/fakecodexapi"
)

// TestAnswerStressCodex is TestAnswerStress for the Codex CLI: dialogs of
// its shapes answered through the Actor (bursts, checkpoints, the grace)
// one after another in long-lived runs, each checked against what the
// rollout recorded.
//
//	LAB_STRESS_DIALOGS=200 go test ./internal/chat -run TestAnswerStressCodex -v -timeout 2h
func TestAnswerStressCodex(t *testing.T) {
	stress(t, 6, codexShapes, func(codexShape) stressCLI[codexShape] { return startCodexRun(t) })
}

// codexShape is one kind of Codex dialog.
type codexShape struct {
	name, prompt string
	plan         bool // asked in Plan mode
	answer       func(d *conv.Dialog) conv.Answer
	// ran checks a permission answer by the call's folded result; nil
	// for dialogs, whose recorded outcome must be the intended one.
	ran func(tc *conv.ToolCall) error
}

func codexOption(role conv.OptionRole) func(d *conv.Dialog) conv.Answer {
	return func(d *conv.Dialog) conv.Answer {
		o := -1
		for i, op := range d.Permission.Options {
			if op.Role == role && o < 0 {
				o = i
			}
		}
		return conv.Answer{ToolID: d.ToolID, Option: &o}
	}
}

var codexShapes = []codexShape{
	{name: "question_option", prompt: "lab:single which database?", answer: answerQ(qa(1))},
	{name: "plan_stay_feedback", prompt: "lab:plan add a greeting", plan: true, answer: answerPlan(2, "make it smaller")},
	{name: "approval_allow", prompt: "lab:permission make a file", answer: codexOption(conv.RoleAllowOnce),
		ran: func(tc *conv.ToolCall) error {
			if tc.Status != conv.ToolOK || tc.Output != "created\n" {
				return fmt.Errorf("call %s with %q; want it run", tc.Status, tc.Output)
			}
			return nil
		}},
	{name: "form_notes", prompt: "lab:form two questions", answer: answerQ(qaText("a darker blue", 1), qaText("medium would be best"))},
	{name: "plan_implement", prompt: "lab:plan add a greeting", plan: true, answer: answerPlan(0, "")},
	{name: "approval_deny", prompt: "lab:permission make a file", answer: codexOption(conv.RoleDeny),
		ran: func(tc *conv.ToolCall) error {
			if tc.Status != conv.ToolError || !strings.Contains(tc.Output, "aborted by user") {
				return fmt.Errorf("call %s with %q; want it aborted", tc.Status, tc.Output)
			}
			return nil
		}},
	{name: "question_notes", prompt: "lab:single which database?", answer: answerQ(qaText("but embedded", 0))},
}

// codexRun is one Codex CLI under test, wired like cliRun.
type codexRun struct {
	rig    *codextest.Rig
	target string
	live   *live
	actor  *Actor
}

func startCodexRun(t *testing.T) *codexRun {
	rig := codextest.NewRig(t, fakecodexapi.Options{})
	spool := filepath.Join(codextest.ShortTempDir(t, "labrun"), "spool")
	if err := os.MkdirAll(spool, 0o700); err != nil {
		t.Fatal(err)
	}
	hooks, err := codex.HookArgs(spool)
	if err != nil {
		t.Fatal(err)
	}
	r := &codexRun{rig: rig, target: "c"}
	rig.Spawn(r.target, codex.SpawnOptions{Hooks: hooks})
	intents := NewIntents()
	pane := TmuxPane{Server: rig.Tmux, Target: r.target}
	r.live = newLive("run-c", codex.OpenSpool(spool), func() agent.Fold { return codex.NewFold() }, pane, codexDriver(), intents.Lookup, &eventLog{}, slog.New(slog.DiscardHandler), liveOpts{})
	t.Cleanup(r.live.close)
	r.actor = NewActor(pane, codexDriver(), func(context.Context) (*conv.Dialog, error) { d, _ := r.live.current(); return d, nil }, intents, e2eOpts(DefaultKeyDelay))
	return r
}

func (r *codexRun) stop() {
	r.live.close()
	r.rig.Tmux.KillSession(context.Background(), r.target)
}

func (r *codexRun) screen() string   { return r.rig.Pane(r.target) }
func (r *codexRun) answerer() *Actor { return r.actor }

func (s codexShape) label() string                        { return s.name }
func (s codexShape) second() bool                         { return s.plan }
func (s codexShape) answerFor(d *conv.Dialog) conv.Answer { return s.answer(d) }

// ask types s's prompt at the empty input box (in Plan mode for a plan)
// and returns the dialog it asks, once its picker shows.
func (r *codexRun) ask(s codexShape) (*conv.Dialog, error) {
	setMode := func() error {
		return cycleMode(r.rig.Tmux, r.target, 10, func(line string) bool { return strings.Contains(line, "Plan mode") == s.plan })
	}
	return askAt(r.live, r.actor, r.screen, setMode, s.prompt, func(d *conv.Dialog) bool { return r.actor.drv.Dress(d.Clone(), r.screen()) })
}

// recorded folds the rollout afresh (not the live view, which shows a
// landed answer's intended outcome) and checks what it recorded for d.
func (r *codexRun) recorded(s codexShape, d *conv.Dialog, a conv.Answer) (bool, error) {
	b, err := os.ReadFile(r.live.transcriptPath())
	if err != nil {
		return false, nil
	}
	f := codex.NewFold()
	f.Write(b)
	if !f.Resolved(d.ToolID) {
		return false, nil
	}
	msgs, _ := f.Messages(0, 0, 0)
	for _, m := range msgs {
		switch {
		case s.ran != nil && m.Tool != nil && m.Tool.ID == d.ToolID:
			if m.Tool.Status == conv.ToolRunning {
				return false, nil
			}
			return true, s.ran(m.Tool)
		case s.ran == nil && m.Dialog != nil && m.Dialog.ToolID == d.ToolID:
			got, _ := json.Marshal(m.Dialog.Outcome)
			want, _ := json.Marshal(codex.IntendedOutcome(d, a))
			if string(got) != string(want) {
				return true, fmt.Errorf("recorded %s; lab meant %s", got, want)
			}
			return true, nil
		}
	}
	return false, nil
}
