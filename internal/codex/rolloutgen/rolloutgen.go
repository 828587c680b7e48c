// Package rolloutgen writes large synthetic Codex rollouts in the line
// shapes the CLI 0.171.0 writes, for benchmarking the fold on sizes no
// captured conversation reaches. The mix follows the real captures: most
// bytes are bookkeeping (turn contexts, world-state snapshots, thread
// settings, developer instructions re-sent each turn) and command outputs
// that a rollout carries twice (the UI's item event and the model's
// function output); the rest is prompts, reasoning, prose, tool calls,
// patches, answered questions and plans.
//
// The output is deterministic for a given Options.
package rolloutgen

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"lab/internal/foldkit/foldgen"
)

// Options shapes a generated rollout: what every generator takes (a
// command output is written twice per call).
type Options = foldgen.Options

// Default is the benchmark rollout: 100 MB with command outputs up to 1 MB.
func Default() Options {
	return Options{Size: 100 << 20, Seed: 1, MaxOutput: 1 << 20}
}

// gen is a generator in progress: what every generator carries (foldgen.Gen)
// and a rollout's own ids and counters (ordinals, call ids, item ids); a
// transcript's differ.
type gen struct {
	foldgen.Gen
	opt     Options
	session string
	ordinal int
	call    int
	msg     int
}

// Write writes a rollout of at least opt.Size bytes to w and returns the
// bytes written.
func Write(w io.Writer, opt Options) (int64, error) {
	g := &gen{
		Gen:     foldgen.NewGen(w, opt.Seed, 0xc0de, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)),
		opt:     opt,
		session: fmt.Sprintf("01a22fba-0000-7000-8000-%012d", opt.Seed),
	}
	g.line("session_meta", obj{"id": g.session, "session_id": g.session, "cwd": "/tmp/lab/work", "originator": "codex-tui",
		"cli_version": "0.171.0", "source": "cli", "model_provider": "local", "base_instructions": obj{"text": g.words(20000)}})
	return g.Turns(opt.Size, g.turn)
}

type obj = map[string]any

// line writes one rollout line with its keys in the CLI's order
// (timestamp, ordinal, type, payload) and the payload's type first.
func (g *gen) line(typ string, payload obj) {
	if g.Err != nil {
		return
	}
	ts := g.Tick(50, 2000)
	var body []byte
	var err error
	if t, ok := payload["type"].(string); ok {
		delete(payload, "type")
		body, err = foldgen.KeyFirst("type", t, payload)
	} else {
		body, err = json.Marshal(payload)
	}
	if err != nil {
		g.Err = err
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, `{"timestamp":%q,"ordinal":%d,"type":%q,"payload":`, ts, g.ordinal, typ)
	b.Write(body)
	b.WriteString("}\n")
	g.ordinal++
	g.WriteString(b.String())
}

var vocabulary = strings.Fields(`the a cache lookup returns value key error nil func struct go test fold
rollout line message tool result output bytes seq hash dialog plan question answer state
working idle ended interrupt server request stream append window size limit buffer
"quoted" back\slash tab	tab café naïve 日本語 ✓ → x := y; if err != nil { return err }`)

// words returns about n bytes of text with the escapes JSON needs.
func (g *gen) words(n int) string { return g.Words(vocabulary, n) }

func meta(provenance string) obj {
	return obj{"turn_id": "t", "content_item_metadata": []obj{{"provenance": obj{"type": provenance}}}}
}

func (g *gen) event(typ string, rest obj) {
	rest["type"] = typ
	g.line("event_msg", rest)
}

func (g *gen) item(typ string, rest obj) {
	rest["type"] = typ
	g.line("response_item", rest)
}

func (g *gen) turn(turn int) {
	g.event("task_started", obj{"turn_id": fmt.Sprintf("turn-%d", turn), "collaboration_mode_kind": "default", "model_context_window": 258400})
	if turn%5 == 0 {
		// Developer instructions are re-sent when the context changes.
		g.item("message", obj{"role": "developer", "content": []obj{{"type": "input_text", "text": "<permissions instructions>" + g.words(12000) + "</permissions instructions>"}}})
		g.item("message", obj{"role": "user", "content": []obj{{"type": "input_text", "text": "<environment_context>\n  <cwd>/tmp/lab/work</cwd>\n</environment_context>"}},
			"internal_chat_message_metadata_passthrough": meta("harness")})
		g.line("world_state", obj{"full": true, "state": obj{"agents_md": obj{}, "environments": g.words(5000)}})
	}
	g.line("turn_context", obj{"turn_id": fmt.Sprintf("turn-%d", turn), "cwd": "/tmp/lab/work", "approval_policy": "on-request", "model": "gpt-5.5", "permission_profile": g.words(4000)})
	g.event("thread_settings_applied", obj{"thread_id": g.session, "thread_settings": obj{"model": "gpt-5.5", "permission_profile": g.words(3500)}})
	prompt := g.words(40 + g.Rng.IntN(400))
	g.item("message", obj{"role": "user", "content": []obj{{"type": "input_text", "text": prompt}}, "internal_chat_message_metadata_passthrough": meta("user")})
	g.event("item_completed", obj{"thread_id": g.session, "item": obj{"type": "UserMessage", "content": []obj{{"type": "text", "text": prompt}}}})

	steps := 1 + g.Rng.IntN(4)
	for s := 0; s < steps; s++ {
		if g.Rng.IntN(3) == 0 {
			summary := g.words(300 + g.Rng.IntN(2000))
			g.event("item_completed", obj{"item": obj{"type": "Reasoning", "summary_text": []string{summary}}})
			g.item("reasoning", obj{"id": g.id("rs_"), "summary": []obj{{"type": "summary_text", "text": summary}}, "encrypted_content": nil})
		}
		g.assistant(g.words(100 + g.Rng.IntN(1500)))
		switch k := g.Rng.IntN(20); {
		case k == 0:
			g.question()
		case k == 1:
			g.patch()
		case k == 2 && s == steps-1:
			g.assistant("Here is the plan.\n\n<proposed_plan>\n# Plan\n\n" + g.words(1000+g.Rng.IntN(4000)) + "\n</proposed_plan>")
		default:
			g.command()
		}
		g.line("token_usage_record", obj{"thread_id": g.session, "usage": obj{"input_tokens": 100, "output_tokens": 50}})
		g.event("token_count", obj{"info": obj{"total_token_usage": obj{"input_tokens": 100}}, "rate_limits": nil})
	}
	last := g.words(200 + g.Rng.IntN(2000))
	g.assistant(last)
	g.event("task_complete", obj{"turn_id": fmt.Sprintf("turn-%d", turn), "last_agent_message": last, "duration_ms": 1000})
}

func (g *gen) id(prefix string) string {
	g.msg++
	return fmt.Sprintf("%s01%022d", prefix, g.msg)
}

func (g *gen) callID() string {
	g.call++
	return fmt.Sprintf("call_01%022d", g.call)
}

func (g *gen) assistant(text string) {
	g.event("item_completed", obj{"item": obj{"type": "AgentMessage", "content": []obj{{"type": "Text", "text": text}}}})
	g.item("message", obj{"role": "assistant", "id": g.id("msg_"), "status": "completed", "content": []obj{{"type": "output_text", "text": text, "annotations": []any{}}}})
}

func (g *gen) command() {
	id := g.callID()
	out := g.words(g.OutputSize(g.opt.MaxOutput))
	args, _ := json.Marshal(obj{"cmd": "go test ./... 2>&1 | tail -50", "yield_time_ms": 10000})
	g.item("function_call", obj{"id": g.id("fc_"), "name": "exec_command", "arguments": string(args), "call_id": id})
	g.event("item_completed", obj{"item": obj{"type": "CommandExecution", "id": id, "command": []string{"/bin/bash", "-lc", "go test ./..."},
		"status": "completed", "aggregated_output": out, "exit_code": 0}})
	g.item("function_call_output", obj{"call_id": id, "output": "Chunk ID: ab12\nWall time: 1.2 seconds\nProcess exited with code 0\nOriginal token count: 900\nOutput:\n" + out})
}

func (g *gen) patch() {
	id := g.callID()
	body := "+" + strings.ReplaceAll(g.words(500+g.Rng.IntN(5000)), "\n", "\n+")
	g.item("custom_tool_call", obj{"id": g.id("ctc_"), "name": "apply_patch", "call_id": id, "input": "*** Begin Patch\n*** Add File: notes.md\n" + body + "\n*** End Patch\n"})
	g.event("item_completed", obj{"item": obj{"type": "FileChange", "id": id, "status": "completed"}})
	g.item("custom_tool_call_output", obj{"call_id": id, "output": "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess. Updated the following files:\nA notes.md\n"})
}

func (g *gen) question() {
	id := g.callID()
	args, _ := json.Marshal(obj{"questions": []obj{{"id": "database", "header": "Database", "question": "Which database should we use?",
		"options": []obj{{"label": "SQLite", "description": "Embedded"}, {"label": "PostgreSQL", "description": "Server"}}}}})
	g.item("function_call", obj{"id": g.id("fc_"), "name": "request_user_input", "arguments": string(args), "call_id": id})
	g.line("retained_context", obj{"type": "verified_answer", "call_id": id, "questions": []obj{{"question": "Which database should we use?", "answer": "SQLite"}}})
	g.item("function_call_output", obj{"call_id": id, "output": `{"answers":{"database":{"answers":["SQLite","user_note: keep it simple"]}}}`})
}
