package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lab/internal/agent"
	"lab/internal/conv"
)

// steerPane reads a pane captured from 2.1.332 (testdata/steer).
func steerPane(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "steer", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFooterMode(t *testing.T) {
	for pane, want := range map[string]string{
		"footer-manual":    "default", // the transcript's name for manual
		"footer-accept":    "acceptEdits",
		"footer-plan":      "plan",
		"footer-auto-busy": "auto",
		"menu-compact":     "auto",
		"model-picker":     "", // the picker hides the footer
		"model-switched":   "auto",
		"model-confirm":    "",
	} {
		if got := footerMode(steerPane(t, pane)); got != want {
			t.Errorf("footerMode(%s) = %q; want %q", pane, got, want)
		}
	}
}

func TestMenuCursor(t *testing.T) {
	if got, open := Menu(steerPane(t, "menu-compact")); !open || got != "compact" {
		t.Errorf("Menu(menu-compact) = %q, %v; want compact", got, open)
	}
	// The box's own "❯ /compact" is not a menu row.
	if got, open := Menu(steerPane(t, "model-switched")); open {
		t.Errorf("Menu(model-switched) = %q; want no menu", got)
	}
}

func TestSwitchModePlansPresses(t *testing.T) {
	pane := steerPane(t, "footer-manual")
	moves, err := SwitchMode("acceptEdits", pane)
	if err != nil || len(moves) != 1 || moves[0].Key != "BTab" || moves[0].Times < 3 {
		t.Fatalf("SwitchMode(acceptEdits) from manual = %+v, %v; want BTab pressed until the footer says so", moves, err)
	}
	if id, err := moves[0].Settled.Match(pane); err == nil || id != "default" {
		t.Errorf("the check passes on the manual footer (%q, %v); it must say where the cycle is", id, err)
	}
	if _, err := moves[0].Settled.Match(steerPane(t, "footer-accept")); err != nil {
		t.Errorf("the check fails on the accept-edits footer: %v", err)
	}
	if moves, err := SwitchMode("manual", pane); err != nil || len(moves) != 0 {
		t.Errorf("SwitchMode(manual) on a manual footer = %+v, %v; want nothing to do", moves, err)
	}
	if _, err := SwitchMode("dontAsk", pane); conv.KindOf(err) != conv.EInvalid {
		t.Errorf("SwitchMode(dontAsk) = %v; want EInvalid (the cycle does not reach it)", err)
	}
	if _, err := SwitchMode("plan", steerPane(t, "model-picker")); conv.KindOf(err) != conv.EConflict {
		t.Errorf("SwitchMode with no footer = %v; want EConflict", err)
	}
}

// TestSwitchModelWalksThePicker plays the model picker's recipe on the
// captured picker: from the cursor on Default down to Sonnet, each row
// checked, then s.
func TestSwitchModelWalksThePicker(t *testing.T) {
	moves, err := SwitchModel("sonnet")
	if err != nil || len(moves) != 3 || moves[0].Command != "/model" {
		t.Fatalf("SwitchModel(sonnet) = %+v, %v; want /model, the pick, the confirmation", moves, err)
	}
	picker := steerPane(t, "model-picker")
	if _, err := moves[0].Settled.Match(picker); err != nil {
		t.Fatalf("the picker does not pass as opened: %v", err)
	}
	steps, err := moves[1].Pick(picker)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, s := range steps {
		if s.Kind == agent.StepKey {
			keys = append(keys, s.Key)
		}
	}
	if strings.Join(keys, " ") != "Down Down Down s" || !steps[len(steps)-1].Commit {
		t.Fatalf("keys %v; want three Downs to Sonnet, then s committing", keys)
	}
	if _, err := steps[0].Check.Match(picker); err != nil {
		t.Errorf("the first checkpoint fails on the fresh picker: %v", err)
	}
	if _, err := steps[len(steps)-2].Check.Match(picker); err == nil {
		t.Error("the checkpoint before s passes with the cursor on Default")
	}
	for name, ok := range map[string]bool{"model-confirm": true, "model-switched": true, "model-picker": false} {
		if _, err := moves[1].Settled.Match(steerPane(t, name)); (err == nil) != ok {
			t.Errorf("after the pick, %s passes: %v; want %v", name, err == nil, ok)
		}
	}
	confirm, err := moves[2].Pick(steerPane(t, "model-confirm"))
	if err != nil || len(confirm) != 2 || confirm[1].Key != "Enter" {
		t.Fatalf("confirmation recipe %+v, %v; want the yes row checked, then Enter", confirm, err)
	}
	if _, err := confirm[0].Check.Match(steerPane(t, "model-confirm")); err != nil {
		t.Errorf("the yes row check fails: %v", err)
	}
	if none, _ := moves[2].Pick(steerPane(t, "model-switched")); len(none) != 0 {
		t.Errorf("a switch the CLI did not ask about gets steps %+v", none)
	}
	if _, err := SwitchModel("gpt-4"); conv.KindOf(err) != conv.EInvalid {
		t.Errorf("SwitchModel(gpt-4) = %v; want EInvalid", err)
	}
}

func TestLiteral(t *testing.T) {
	for text, ok := range map[string]bool{"hello": true, "/usr/bin is a folder": true, "/compact please": false, "  /clear": false, "/model\nsonnet": false, "say /compact": true} {
		got, err := Literal(PinnedVersion, text)
		if ok && (err != nil || got != text) {
			t.Errorf("Literal(%q) = %q, %v; want it as is", text, got, err)
		}
		if !ok && conv.KindOf(err) != conv.EConflict {
			t.Errorf("Literal(%q) = %q, %v; want a conflict (the CLI would run the command)", text, got, err)
		}
	}
}
