package chat

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"lab/internal/claude"
	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
)

// This file is the harness of the real-CLI tests of answers, replies and
// interrupts: a run of the real Claude Code CLI in tmux against the
// scripted model, with hooks spooling to a directory, the live view
// (newLive: spool + transcript fold, the production path) as the source
// of the pending dialog, and an Actor on the pane.

// cliRun is one real CLI run under test.
type cliRun struct {
	t       testing.TB
	rig     *claudetest.Rig
	target  string
	live    *live
	intents *Intents
	pane    *countingPane
	actor   *Actor
	events  *eventLog
}

// eventLog records when the live view published what, for latency
// measurements.
type eventLog struct {
	mu  sync.Mutex
	evs []timedEvent
}

type timedEvent struct {
	at time.Time
	ev conv.Event
}

func (l *eventLog) Publish(e conv.Event) {
	l.mu.Lock()
	l.evs = append(l.evs, timedEvent{time.Now(), e})
	l.mu.Unlock()
}

// countingPane is a TmuxPane that counts what it sends, so tests can
// assert that a refused action sent nothing.
type countingPane struct {
	TmuxPane
	mu   sync.Mutex
	sent []string
}

func (p *countingPane) SendKeys(ctx context.Context, keys ...string) error {
	p.mu.Lock()
	p.sent = append(p.sent, keys...)
	p.mu.Unlock()
	return p.TmuxPane.SendKeys(ctx, keys...)
}

func (p *countingPane) Paste(ctx context.Context, text string) error {
	p.mu.Lock()
	p.sent = append(p.sent, "paste:"+text)
	p.mu.Unlock()
	return p.TmuxPane.Paste(ctx, text)
}

func (p *countingPane) Sent() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.sent)
}

// e2eOpts are the actor options of the real-CLI tests: the default pacing,
// generous checkpoint timeouts (the machine is shared and slow at times).
func e2eOpts(keyDelay time.Duration) ActorOptions {
	return ActorOptions{
		KeyDelay:      keyDelay,
		CheckTimeout:  8 * time.Second,
		SettleTimeout: 20 * time.Second,
		Logger:        slog.New(slog.DiscardHandler),
	}
}

// startRun spawns the CLI with prompt in permission mode mode ("" for the
// default) and wires the live view and an actor to it.
func startRun(t testing.TB, mode, prompt string, apiOpts fakeclaudeapi.Options, opts ActorOptions) *cliRun {
	t.Helper()
	return startRunWith(t, mode, prompt, apiOpts, opts, nil)
}

// startRunWith is startRun with setup run on the working directory before
// the CLI starts.
func startRunWith(t testing.TB, mode, prompt string, apiOpts fakeclaudeapi.Options, opts ActorOptions, setup func(work string)) *cliRun {
	t.Helper()
	rig := claudetest.NewRig(t, apiOpts)
	if setup != nil {
		setup(rig.Work)
	}
	runDir := claudetest.ShortTempDir(t, "labrun")
	spoolDir := filepath.Join(runDir, "spool")
	settings := filepath.Join(runDir, "settings.json")
	if err := claude.WriteHookSettings(settings, spoolDir); err != nil {
		t.Fatal(err)
	}
	args := []string{"--settings", settings}
	if mode != "" {
		args = append(args, "--permission-mode", mode)
	}
	if prompt != "" {
		args = append(args, "--", prompt)
	}
	r := &cliRun{t: t, rig: rig, target: "run", intents: NewIntents()}
	rig.Spawn(r.target, args...)
	// The driver keys on the version the binary reports, as lab serve's
	// does (runs.Start records what the provider reports), never on the pin.
	version, err := claude.CLIVersion(t.Context(), rig.Bin)
	if err != nil {
		t.Fatal(err)
	}
	drv := claudeDriver(version)
	r.pane = &countingPane{TmuxPane: TmuxPane{Server: rig.Tmux, Target: r.target}}
	r.events = &eventLog{}
	r.live = newLive("run-1", claude.OpenSpool(spoolDir), claudeFold, r.pane.TmuxPane, drv, r.intents.Lookup, r.events, slog.New(slog.DiscardHandler), liveOpts{})
	t.Cleanup(r.live.close)
	r.actor = NewActor(r.pane, drv, r.pendingNow, r.intents, opts)
	return r
}

func (r *cliRun) pendingNow(ctx context.Context) (*conv.Dialog, error) {
	d, _ := r.live.current()
	return d, nil
}

// waitPending waits for a pending dialog and the picker showing on the
// pane.
func (r *cliRun) waitPending(marker string) *conv.Dialog {
	r.t.Helper()
	var d *conv.Dialog
	claudetest.Poll(r.t, 60*time.Second, "a pending dialog", func() bool {
		d, _ = r.live.current()
		return d != nil
	})
	r.rig.WaitPane(r.target, marker, 30*time.Second)
	return d
}

func (r *cliRun) transcriptPath() string {
	r.t.Helper()
	var p string
	claudetest.Poll(r.t, 30*time.Second, "the transcript path", func() bool {
		r.live.refresh()
		p = r.live.transcriptPath()
		return p != ""
	})
	return p
}

// resolution is a dialog's resolution as the transcript recorded it.
type resolution struct {
	Result     json.RawMessage // toolUseResult
	DenialKind string          // toolDenialKind
	Count      int             // tool_result blocks for the id (one answer = 1)
}

// transcriptLines reads the transcript's JSON lines (large lines included).
func transcriptLines(t testing.TB, path string) []map[string]json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []map[string]json.RawMessage
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var m map[string]json.RawMessage
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// findResolution scans the transcript for the tool_result of toolID.
func findResolution(t testing.TB, path, toolID string) (resolution, bool) {
	var res resolution
	for _, m := range transcriptLines(t, path) {
		if string(m["type"]) != `"user"` {
			continue
		}
		var msg struct {
			Content json.RawMessage `json:"content"`
		}
		json.Unmarshal(m["message"], &msg)
		var blocks []struct {
			Type      string `json:"type"`
			ToolUseID string `json:"tool_use_id"`
		}
		json.Unmarshal(msg.Content, &blocks)
		for _, b := range blocks {
			if b.Type == "tool_result" && b.ToolUseID == toolID {
				res.Count++
				res.Result = m["toolUseResult"]
				json.Unmarshal(m["toolDenialKind"], &res.DenialKind)
			}
		}
	}
	return res, res.Count > 0
}

// waitResolution waits until the transcript records toolID's resolution.
func (r *cliRun) waitResolution(toolID string) resolution {
	r.t.Helper()
	path := r.transcriptPath()
	var res resolution
	claudetest.Poll(r.t, 60*time.Second, "the resolution of "+toolID+" in the transcript", func() bool {
		var ok bool
		res, ok = findResolution(r.t, path, toolID)
		return ok
	})
	return res
}

// recordedAnswers decodes toolUseResult.answers.
func recordedAnswers(t testing.TB, res resolution) map[string]string {
	t.Helper()
	var v struct {
		Answers map[string]string `json:"answers"`
	}
	if err := json.Unmarshal(res.Result, &v); err != nil || v.Answers == nil {
		t.Fatalf("toolUseResult %s has no answers object (%v)", res.Result, err)
	}
	return v.Answers
}

// folded waits until the live fold shows toolID's dialog answered and
// returns the messages from it on.
func (r *cliRun) folded(toolID string) (*conv.Dialog, []conv.Message) {
	r.t.Helper()
	var d *conv.Dialog
	var after []conv.Message
	claudetest.Poll(r.t, 30*time.Second, "the folded outcome of "+toolID, func() bool {
		p := r.live.snapshot(conv.Query{Limit: 10000})
		for i, m := range p.Messages {
			if m.Kind == conv.KindDialog && m.Dialog != nil && m.Dialog.ToolID == toolID && m.Dialog.Outcome != nil {
				d, after = m.Dialog, p.Messages[i+1:]
				return true
			}
		}
		return false
	})
	return d, after
}

// warningsAfter returns the warning lifecycle messages that follow a
// dialog up to the next dialog.
func warningsAfter(msgs []conv.Message) []string {
	var w []string
	for _, m := range msgs {
		if m.Kind == conv.KindDialog {
			break
		}
		if m.Kind == conv.KindLifecycle && m.Lifecycle != nil && m.Lifecycle.Level == conv.LevelWarning {
			w = append(w, m.Lifecycle.Text)
		}
	}
	return w
}

// sameOutcome compares outcomes as the chat shows them (nil and empty
// chosen lists alike).
func sameOutcome(a, b *conv.Outcome) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Dismissed != b.Dismissed || a.Approved != b.Approved || a.Feedback != b.Feedback || len(a.Results) != len(b.Results) {
		return false
	}
	for i := range a.Results {
		x, y := a.Results[i], b.Results[i]
		if x.Question != y.Question || x.OtherText != y.OtherText || len(x.Chosen) != len(y.Chosen) {
			return false
		}
		for k := range x.Chosen {
			if x.Chosen[k] != y.Chosen[k] {
				return false
			}
		}
	}
	return true
}

func outcomeString(o *conv.Outcome) string {
	b, _ := json.Marshal(o)
	return string(b)
}
