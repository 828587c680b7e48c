package codex

import (
	"strings"
	"testing"

	"lab/internal/agent"
	"lab/internal/conv"
)

// Panes as 0.171.0 draws them (trimmed captures).
const (
	paneMenu = `  >_ OpenAI Codex (v0.171.0)
     /tmp/labwork2481896310/work

› /model         choose what model and reasoning effort to use
  /fast          1.5x speed, increased usage
  /presets       run or save reusable prompts and slash commands
› /
  GPT-5.5 default · /tmp/labwork2481896310/work
  ← for agents · ? for shortcuts                                                              ⚠ 2 warnings · f2 to view`

	paneIdle = `› lab:text hello

• Hello from lab's scripted model. You said: lab:text hello

  Worked for <1s • 17:15

› Ask Codex to do anything

  GPT-6.1 Terra low · /tmp/labwork2481896310/work · Scripted session
  ← for agents · ? for shortcuts                                                              ⚠ 2 warnings · f2 to view`

	panePlan = `  Worked for <1s • 17:48

• Model changed to gpt-5.5 medium for Plan mode.

› Ask Codex to do anything

  GPT-5.5 medium · /tmp/labwork2481896310/work · Scripted session
  ← for agents · ? for shortcuts                              Plan mode (shift+tab to cycle) · ⚠ 2 warnings · f2 to view`

	paneLeftPlan = `• Model changed to gpt-5.5 medium for Plan mode.

• Model changed to gpt-5.5 default for Default mode.

› Ask Codex to do anything

  GPT-5.5 default · /tmp/labwork2481896310/work · Scripted session
  ← for agents · ? for shortcuts                                                              ⚠ 2 warnings · f2 to view`

	paneReadOnly = `  Worked for <1s • 17:17

• Permission selection requested: Read Only

› Ask Codex to do anything

  GPT-5.5 default · /tmp/labwork2481896310/work · Scripted session
  ← for agents · ? for shortcuts                                                              ⚠ 1 warning · f2 to view`

	paneFullAsk = `  Enable full access?
  When Codex runs with full access, it can edit any file on your
  computer and run commands with network, without your approval.
› 1. Yes, continue anyway  Apply full access for this session
  2. Cancel                Go back without enabling full access
  enter select · esc back`
)

func TestCodexMenuAndScreen(t *testing.T) {
	if got, open := Menu(paneMenu); !open || got != "model" {
		t.Errorf("Menu(menu) = %q, %v; want model", got, open)
	}
	if got, open := Menu(paneIdle); open {
		t.Errorf("Menu(idle) = %q; want no menu (the prompt echo is not one)", got)
	}
	for name, c := range map[string]struct {
		pane string
		want conv.Settings
	}{
		"menu":      {paneMenu, conv.Settings{Model: "gpt-5.5"}},
		"idle":      {paneIdle, conv.Settings{Model: "gpt-6.1-terra"}},
		"plan":      {panePlan, conv.Settings{Mode: ModePlan, Model: "gpt-5.5"}},
		"left plan": {paneLeftPlan, conv.Settings{Model: "gpt-5.5"}},
	} {
		if got := Settings(c.pane); got != c.want {
			t.Errorf("Settings(%s) = %+v; want %+v", name, got, c.want)
		}
	}
	// A command's note is where a finished turn's "Worked for" would be:
	// the CLI is idle.
	for name, pane := range map[string]string{"plan": panePlan, "read-only": paneReadOnly, "left plan": paneLeftPlan} {
		if k := (driver{}).Look(pane).Kind; k != agent.LookPrompt {
			t.Errorf("Look(%s) = %s; want the prompt", name, k)
		}
	}
}

func TestCodexSwitchMode(t *testing.T) {
	moves, err := SwitchMode(ModePlan, paneIdle)
	if err != nil || len(moves) != 1 || moves[0].Key != "BTab" {
		t.Fatalf("to plan = %+v, %v; want BTab until the footer says Plan mode", moves, err)
	}
	if _, err := moves[0].Settled.Match(panePlan); err != nil {
		t.Errorf("Plan mode's footer does not pass: %v", err)
	}
	if _, err := moves[0].Settled.Match(paneLeftPlan); err == nil {
		t.Error("a note ending in \"Plan mode.\" passes as Plan mode's footer")
	}
	if moves, _ := SwitchMode(ModePlan, panePlan); len(moves) != 0 {
		t.Errorf("to plan while in it = %+v; want nothing", moves)
	}

	moves, err = SwitchMode(SandboxReadOnly, panePlan)
	if err != nil || len(moves) != 2 || moves[0].Key != "BTab" || moves[1].Command != "/permissions :read-only" {
		t.Fatalf("to read-only from plan = %+v, %v; want leaving Plan mode, then /permissions :read-only", moves, err)
	}
	if _, err := moves[1].Settled.Match(paneReadOnly); err != nil {
		t.Errorf("the read-only note does not pass: %v", err)
	}
	if _, err := moves[1].Settled.Match(paneIdle); err == nil {
		t.Error("an idle pane without the note passes as switched")
	}

	moves, err = SwitchMode(SandboxFullAccess, paneIdle)
	if err != nil || len(moves) != 2 || moves[0].Command != "/permissions :danger-full-access" || moves[1].Pick == nil {
		t.Fatalf("to full access = %+v, %v; want the command, then the confirmation", moves, err)
	}
	if _, err := moves[0].Settled.Match(paneFullAsk); err != nil {
		t.Errorf("the confirmation does not pass as the command's outcome: %v", err)
	}
	steps, err := moves[1].Pick(paneFullAsk)
	var keys []string
	for _, s := range steps {
		if s.Kind == agent.StepKey {
			keys = append(keys, s.Key)
		}
	}
	if err != nil || strings.Join(keys, " ") != "Enter" || !steps[len(steps)-1].Commit {
		t.Fatalf("confirmation = %+v, %v; want Enter on the yes row", steps, err)
	}
	if _, err := steps[0].Check.Match(paneFullAsk); err != nil {
		t.Errorf("the yes row check fails: %v", err)
	}
	if _, err := SwitchMode("auto", paneIdle); conv.KindOf(err) != conv.EInvalid {
		t.Errorf("to auto = %v; want EInvalid", err)
	}
}

func TestCodexSwitchModel(t *testing.T) {
	moves, err := SwitchModel("gpt-5.6-sol")
	if err != nil || len(moves) != 1 || moves[0].Command != "/model gpt-5.6-sol" {
		t.Fatalf("SwitchModel = %+v, %v; want /model gpt-5.6-sol", moves, err)
	}
	done := strings.Replace(paneReadOnly, "Permission selection requested: Read Only", "Model changed to gpt-5.6-sol low for this session only", 1)
	if _, err := moves[0].Settled.Match(done); err != nil {
		t.Errorf("the switch note does not pass: %v", err)
	}
	refused := strings.Replace(paneReadOnly, "• Permission selection requested: Read Only", "■ Model 'gpt-5.6-sol' is unavailable. Use /model to see available models.", 1)
	if _, err := moves[0].Settled.Match(refused); err == nil {
		t.Error("the CLI's refusal passes as switched")
	}
	if _, err := SwitchModel("gpt-4"); conv.KindOf(err) != conv.EInvalid {
		t.Errorf("SwitchModel(gpt-4) = %v; want EInvalid", err)
	}
}

func TestLiteral(t *testing.T) {
	for text, want := range map[string]string{"hello": "hello", "/compact is a word": " /compact is a word", "\n /usr/bin": " /usr/bin", "a /b": "a /b"} {
		if got := Literal(text); got != want {
			t.Errorf("Literal(%q) = %q; want %q", text, got, want)
		}
	}
}
