package chat

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"lab/internal/agent"
	"lab/internal/claude"
	"lab/internal/conv"
	"lab/internal/push"
	"lab/internal/push/pushtest"
	"lab/internal/store"
)

// BenchmarkBlockedToPush measures how long a run takes from becoming
// blocked to its push reaching the push service: the PreToolUse hook file
// lands in the spool (as the CLI's hook writes it), the tailer wakes, the
// live view refreshes and publishes, the notifier reads the run, encrypts
// and posts to a local push endpoint. The CLI's own time before it runs
// the hook is not in it (see cmd/lab's TestMeasureBlockedToPushRealCLI).
//
//	go test ./internal/chat -run '^$' -bench BlockedToPush -benchtime 200x
func BenchmarkBlockedToPush(b *testing.B) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "lab.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	svc := pushtest.New(b)
	sub := svc.Subscribe(b)
	if _, err := db.SavePushDevice(ctx, store.PushDevice{Name: "phone", Endpoint: sub.Endpoint, P256dh: sub.P256dh, Auth: sub.Auth, PushOptions: store.DefaultPushOptions}); err != nil {
		b.Fatal(err)
	}
	keys, err := push.LoadOrCreateKeys(filepath.Join(b.TempDir(), push.KeysFile))
	if err != nil {
		b.Fatal(err)
	}
	notifier := push.NewNotifier(push.Config{DB: db, Sender: &push.Sender{Keys: keys}})
	defer notifier.Close()

	runner := newStubRunner(b)
	runner.add("run-1")
	chat, err := NewService(ctx, ServiceConfig{Runs: runner, Providers: []agent.Provider{claude.New()}, Library: NewLibrary(testShelves(b.TempDir()), nil), Publish: notifier})
	if err != nil {
		b.Fatal(err)
	}
	defer chat.Close()
	notifier.Start(ctx, chat)

	spool := runner.SpoolDir("run-1")
	transcript := filepath.Join(b.TempDir(), "sess-1.jsonl")
	spoolEvent(b, spool, "SessionStart", map[string]any{"hook_event_name": "SessionStart", "session_id": "sess-1", "transcript_path": transcript, "source": "startup"})
	appendLines(b, transcript, lineUser("ask me things"))

	question := map[string]any{"questions": []any{map[string]any{"question": "Go on?", "header": "Go", "multiSelect": false,
		"options": []any{map[string]any{"label": "Yes"}, map[string]any{"label": "No"}}}}}
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		id := fmt.Sprintf("toolu_%d", i)
		start := time.Now()
		spoolEvent(b, spool, "PreToolUse", map[string]any{"hook_event_name": "PreToolUse", "session_id": "sess-1", "tool_name": "AskUserQuestion", "tool_use_id": id, "tool_input": question})
		got := svc.Next(b, 30*time.Second)
		lat = append(lat, got.At.Sub(start))
		if got.Err != nil {
			b.Fatal(got.Err)
		}
		// Answer it in the transcript, so the next dialog is the only one.
		b.StopTimer()
		appendLines(b, transcript, lineToolUse(id, "AskUserQuestion", question), lineToolResult(id, "Yes", map[string]any{"toolUseResult": map[string]any{"answers": map[string]any{"Go on?": "Yes"}}}))
		deadline := time.Now().Add(10 * time.Second)
		for {
			p, _ := chat.Messages(ctx, "run-1", conv.Query{Limit: 1})
			if p.PendingDialog == nil {
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("dialog %s never resolved", id)
			}
			time.Sleep(5 * time.Millisecond)
		}
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
}
