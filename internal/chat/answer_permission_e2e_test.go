package chat

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
)

// The permission prompts of --permission-mode manual, answered through the
// Actor into the real CLI: each case asserts the transcript's record of
// the decision, the folded tool chip, and what the scripted model received.

// waitPermission waits for a pending permission dialog with its options
// read off the pane.
func (r *cliRun) waitPermission() *conv.Dialog {
	r.t.Helper()
	var d *conv.Dialog
	claudetest.Poll(r.t, 60*time.Second, "a pending permission dialog", func() bool {
		d, _ = r.live.current()
		return d != nil && d.Kind == conv.DialogPermission && len(d.Permission.Options) > 0
	})
	return d
}

// optionOf returns the index of the first option with role.
func optionOf(t testing.TB, d *conv.Dialog, role conv.OptionRole) int {
	t.Helper()
	for i, o := range d.Permission.Options {
		if o.Role == role {
			return i
		}
	}
	t.Fatalf("no %s option in %+v", role, d.Permission.Options)
	return -1
}

// chip waits until the live fold shows toolID's tool with a result.
func (r *cliRun) chip(toolID string) *conv.ToolCall {
	r.t.Helper()
	var tc *conv.ToolCall
	claudetest.Poll(r.t, 30*time.Second, "the folded chip of "+toolID, func() bool {
		p := r.live.snapshot(conv.Query{Limit: 10000})
		for _, m := range p.Messages {
			if m.Kind == conv.KindTool && m.Tool.ID == toolID && m.Tool.Status != conv.ToolRunning {
				tc = m.Tool
				return true
			}
		}
		return false
	})
	return tc
}

// modelGot waits for the request that carries toolID's result to the
// scripted model and returns that result.
func (r *cliRun) modelGot(toolID string) fakeclaudeapi.ToolResult {
	r.t.Helper()
	var got fakeclaudeapi.ToolResult
	r.rig.WaitRequest(60*time.Second, "the tool result of "+toolID+" at the model", func(q fakeclaudeapi.Request) bool {
		for _, tr := range q.ToolResults {
			if tr.ToolUseID == toolID {
				got = tr
				return true
			}
		}
		return false
	})
	return got
}

// decisionOf reads a tool result line's permissionDecision.
func decisionOf(t testing.TB, path, toolID string) (decision, source, feedback string) {
	t.Helper()
	decision, source, feedback, ok := findDecision(t, path, toolID)
	if !ok {
		t.Fatalf("no tool_result for %s in the transcript", toolID)
	}
	return decision, source, feedback
}

// findDecision is decisionOf without failing: ok is false while the
// transcript has no tool_result for toolID.
func findDecision(t testing.TB, path, toolID string) (decision, source, feedback string, ok bool) {
	for _, m := range transcriptLines(t, path) {
		// Only the user line records the decision: on 2.1.332 the
		// api-request-blob of the next request, holding the same
		// tool_result, can be written before it.
		if string(m["type"]) != `"user"` {
			continue
		}
		var msg struct {
			Content []struct {
				Type      string `json:"type"`
				ToolUseID string `json:"tool_use_id"`
			} `json:"content"`
		}
		json.Unmarshal(m["message"], &msg)
		for _, b := range msg.Content {
			if b.Type == "tool_result" && b.ToolUseID == toolID {
				var pd struct{ Decision, Source string }
				json.Unmarshal(m["permissionDecision"], &pd)
				json.Unmarshal(m["userFeedback"], &feedback)
				return pd.Decision, pd.Source, feedback, true
			}
		}
	}
	return "", "", "", false
}

func answerOption(t testing.TB, r *cliRun, d *conv.Dialog, option int, feedback string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := r.actor.Answer(ctx, conv.Answer{ToolID: d.ToolID, Option: &option, Feedback: feedback}); err != nil {
		t.Fatalf("answer option %d: %v\npane:\n%s", option, err, r.rig.Pane(r.target))
	}
}

func TestPermissionBashAllowOnce(t *testing.T) {
	r := startRun(t, "manual", "lab:permission make a file", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
	d := r.waitPermission()
	p := d.Permission
	if p.Tool != "Bash" || p.Command != "touch lab-permission-probe.txt && echo created" || p.Description != "Create a probe file" || p.Question != "Do you want to proceed?" {
		t.Fatalf("got permission %+v", p)
	}
	if st := r.live.snapshot(conv.Query{}).State; st != conv.StateQuestion {
		t.Fatalf("state %s while the prompt waits; want question", st)
	}
	answerOption(t, r, d, optionOf(t, d, conv.RoleAllowOnce), "")
	if dec, src, _ := decisionOf(t, r.transcriptPathAfter(d.ToolID), d.ToolID); dec != "accept" || src != "user_temporary" {
		t.Fatalf("recorded %s by %s; want accept by user_temporary", dec, src)
	}
	if c := r.chip(d.ToolID); c.Decision == nil || !c.Decision.Allowed || c.Decision.Scope != "once" || c.Status != conv.ToolOK {
		t.Fatalf("chip %+v decision %+v; want ok, allowed once", c, c.Decision)
	}
	if got := r.modelGot(d.ToolID); got.IsError || !strings.Contains(got.Content, "created") {
		t.Fatalf("model got %+v; want the command's output", got)
	}
	if _, err := os.Stat(filepath.Join(r.rig.Work, "lab-permission-probe.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
}

func TestPermissionBashAllowAlways(t *testing.T) {
	r := startRun(t, "manual", "lab:twice go", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
	d := r.waitPermission()
	always := optionOf(t, d, conv.RoleAllowAlways)
	if !strings.Contains(d.Permission.Options[always].Label, "sh -c 'echo lab-twice'") {
		t.Fatalf("allow-always option %q does not name the rule", d.Permission.Options[always].Label)
	}
	answerOption(t, r, d, always, "")
	first := r.modelGot(d.ToolID)
	// The second, identical call runs by the saved rule: no prompt.
	var second string
	r.rig.WaitRequest(60*time.Second, "the second call's result", func(q fakeclaudeapi.Request) bool {
		for _, tr := range q.ToolResults {
			if tr.ToolUseID != d.ToolID {
				second = tr.ToolUseID
				return true
			}
		}
		return false
	})
	r.waitResolution(d.ToolID)
	path := r.transcriptPathAfter(second)
	if _, src, _ := decisionOf(t, path, d.ToolID); src != "user_permanent" {
		t.Fatalf("first call decided by %s; want user_permanent", src)
	}
	if _, src, _ := decisionOf(t, path, second); src != "config" {
		t.Fatalf("second call decided by %s; want config (the saved rule)", src)
	}
	if c := r.chip(d.ToolID); c.Decision == nil || c.Decision.Scope != "always" {
		t.Fatalf("first chip decision %+v; want allowed always", c.Decision)
	}
	if c := r.chip(second); c.Decision != nil {
		t.Fatalf("second chip decision %+v; want none (no prompt)", c.Decision)
	}
	if !strings.Contains(first.Content, "lab-twice") {
		t.Fatalf("model got %+v", first)
	}
}

func TestPermissionBashDenyWithFeedback(t *testing.T) {
	r := startRun(t, "manual", "lab:permission make a file", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
	d := r.waitPermission()
	deny := optionOf(t, d, conv.RoleDeny)
	if !d.Permission.Options[deny].Feedback {
		t.Fatalf("the deny option takes no feedback: %+v", d.Permission.Options)
	}
	answerOption(t, r, d, deny, "Use mkdir instead")
	dec, src, fb := decisionOf(t, r.transcriptPathAfter(d.ToolID), d.ToolID)
	if dec != "reject" || src != "user_reject" || fb != "Use mkdir instead" {
		t.Fatalf("recorded %s by %s with %q; want reject by user_reject with the feedback", dec, src, fb)
	}
	if c := r.chip(d.ToolID); c.Decision == nil || c.Decision.Allowed || c.Decision.Feedback != "Use mkdir instead" {
		t.Fatalf("chip decision %+v; want denied with the feedback", c.Decision)
	}
	if got := r.modelGot(d.ToolID); !got.IsError || !strings.Contains(got.Content, "the user said:\nUse mkdir instead") {
		t.Fatalf("model got %+v; want the denial carrying the feedback", got)
	}
	if _, err := os.Stat(filepath.Join(r.rig.Work, "lab-permission-probe.txt")); err == nil {
		t.Fatal("the denied command ran")
	}
}

func TestPermissionFileChangesShowTheirDiff(t *testing.T) {
	t.Run("write", func(t *testing.T) {
		r := startRun(t, "manual", "lab:write go", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
		d := r.waitPermission()
		p := d.Permission
		if p.Tool != "Write" || filepath.Base(p.Path) != fakeclaudeapi.WriteFile || !strings.HasSuffix(p.Diff, "@@ -0,0 +1,2 @@\n+first line\n+second line") {
			t.Fatalf("got %+v", p)
		}
		answerOption(t, r, d, optionOf(t, d, conv.RoleAllowOnce), "")
		r.chip(d.ToolID)
		b, err := os.ReadFile(filepath.Join(r.rig.Work, fakeclaudeapi.WriteFile))
		if err != nil || string(b) != fakeclaudeapi.WriteBody {
			t.Fatalf("file holds %q (%v); want the written content", b, err)
		}
	})
	t.Run("edit", func(t *testing.T) {
		r := startRunWith(t, "manual", "lab:edit go", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay), func(work string) {
			os.WriteFile(filepath.Join(work, fakeclaudeapi.EditFile), []byte(fakeclaudeapi.EditBefore+"\n"), 0o644)
		})
		d := r.waitPermission()
		p := d.Permission
		if p.Tool != "Edit" || !strings.HasSuffix(p.Diff, "@@ -1 +1 @@\n-hello\n+hello, edited") {
			t.Fatalf("got %+v", p)
		}
		answerOption(t, r, d, optionOf(t, d, conv.RoleAllowOnce), "")
		if c := r.chip(d.ToolID); c.Decision == nil || !c.Decision.Allowed {
			t.Fatalf("chip decision %+v", c.Decision)
		}
		b, _ := os.ReadFile(filepath.Join(r.rig.Work, fakeclaudeapi.EditFile))
		if string(b) != fakeclaudeapi.EditAfter+"\n" {
			t.Fatalf("file holds %q; want the edit applied", b)
		}
	})
}

// A prompt answered at the terminal while lab shows it: the card goes
// away and history shows the decision; lab then refuses a late answer for
// it without a key.
func TestPermissionAnsweredAtTheTerminal(t *testing.T) {
	r := startRun(t, "manual", "lab:permission make a file", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
	d := r.waitPermission()
	r.rig.WaitPaneSettled(r.target, "Do you want to proceed?", 300*time.Millisecond, 30*time.Second)
	r.rig.Keys(r.target, "Enter")
	claudetest.Poll(t, 30*time.Second, "the card to go away", func() bool {
		p, _ := r.live.current()
		return p == nil || p.ToolID != d.ToolID
	})
	if c := r.chip(d.ToolID); c.Decision == nil || !c.Decision.Allowed || c.Decision.Scope != "once" {
		t.Fatalf("chip decision %+v; want allowed once", c.Decision)
	}
	zero := 0
	err := r.actor.Answer(context.Background(), conv.Answer{ToolID: d.ToolID, Option: &zero})
	if conv.KindOf(err) != conv.EConflict || len(r.pane.Sent()) != 0 {
		t.Fatalf("late answer got %v and sent %q; want a conflict and no key", err, r.pane.Sent())
	}
}

// A stale tool_id is refused with nothing typed, and the prompt still
// waits.
func TestPermissionStaleToolIDIsAConflict(t *testing.T) {
	r := startRun(t, "manual", "lab:permission make a file", fakeclaudeapi.Options{}, e2eOpts(DefaultKeyDelay))
	d := r.waitPermission()
	zero := 0
	err := r.actor.Answer(context.Background(), conv.Answer{ToolID: "toolu_stale", Option: &zero})
	if conv.KindOf(err) != conv.EConflict {
		t.Fatalf("got %v; want a conflict", err)
	}
	if sent := r.pane.Sent(); len(sent) != 0 {
		t.Fatalf("sent %q for a stale tool_id; want nothing", sent)
	}
	if p, _ := r.live.current(); p == nil || p.ToolID != d.ToolID {
		t.Fatalf("pending is %+v; want the prompt still waiting", p)
	}
}

// transcriptPathAfter waits until the transcript records toolID's result
// and returns its path.
func (r *cliRun) transcriptPathAfter(toolID string) string {
	r.t.Helper()
	r.waitResolution(toolID)
	return r.transcriptPath()
}
