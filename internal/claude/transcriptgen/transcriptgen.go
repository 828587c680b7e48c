// Package transcriptgen writes large synthetic Claude Code transcripts in
// the line shapes the CLI 2.1.328 writes, for benchmarking the fold on
// sizes no captured conversation reaches. The mix follows the real
// captures: most bytes are bookkeeping (request blobs, prompt snapshots)
// and tool outputs that a line carries twice; the rest is prompts,
// thinking, prose, tool calls and answered or declined dialogs.
//
// The output is deterministic for a given Options.
package transcriptgen

import (
	"fmt"
	"io"
	"strings"
	"time"

	"lab/internal/foldkit/foldgen"
)

// Options shapes a generated transcript: the size, seed and largest tool
// output every generator takes (a tool output is written twice per result
// line, and once more in a request blob), and the huge request blobs.
type Options struct {
	foldgen.Options
	// HugeBlobs is how many request-blob lines of HugeBlobBytes each to
	// spread through the transcript (the CLI records a request's large
	// attachments this way; they reach tens of megabytes).
	HugeBlobs     int
	HugeBlobBytes int
}

// Default is the benchmark transcript: 100 MB with two 12 MB blobs and
// tool outputs up to 1 MB.
func Default() Options {
	return Options{Options: foldgen.Options{Size: 100 << 20, Seed: 1, MaxOutput: 1 << 20}, HugeBlobs: 2, HugeBlobBytes: 12 << 20}
}

// gen is a generator in progress: what every generator carries (foldgen.Gen)
// and a transcript's own ids and counters (uuids chained by parentUuid,
// tool_use ids, message ids); a rollout's differ.
type gen struct {
	foldgen.Gen
	opt     Options
	session string
	prev    string
	uuid    int
	tool    int
	msg     int
}

// Write writes a transcript of at least opt.Size bytes to w and returns the
// bytes written.
func Write(w io.Writer, opt Options) (int64, error) {
	g := &gen{
		Gen:     foldgen.NewGen(w, opt.Seed, 0x1ab, time.Date(2026, 7, 8, 9, 0, 0, 0, time.UTC)),
		opt:     opt,
		session: fmt.Sprintf("5e551011-0000-4000-8000-%012d", opt.Seed),
	}
	hugeEvery := int64(0)
	if opt.HugeBlobs > 0 {
		hugeEvery = opt.Size / int64(opt.HugeBlobs+1)
	}
	nextHuge, huge := hugeEvery, 0
	return g.Turns(opt.Size, func(turn int) {
		g.turn(turn)
		if hugeEvery > 0 && huge < opt.HugeBlobs && g.N >= nextHuge {
			g.blob(g.words(opt.HugeBlobBytes))
			huge++
			nextHuge += hugeEvery
		}
	})
}

type obj = map[string]any

func (g *gen) emit(v any) { g.JSONLine(v) }

func (g *gen) ts() string { return g.Tick(200, 3000) }

func (g *gen) id() string {
	g.uuid++
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", g.opt.Seed, g.uuid)
}

var vocabulary = strings.Fields(`the a cache lookup returns value key error nil func struct go test fold
transcript line message tool result output bytes seq hash dialog plan question answer state
working idle ended interrupt server request blob stream append window size limit buffer
"quoted" back\slash tab	tab café naïve 日本語 ✓ → x := y; if err != nil { return err }`)

// words returns about n bytes of text with the escapes JSON needs
// (quotes, backslashes, tabs, newlines, non-ASCII).
func (g *gen) words(n int) string { return g.Words(vocabulary, n) }

// common is the envelope the CLI puts on conversation lines; user and
// assistant lines carry their type after other keys, as the CLI writes
// them, so a reader cannot skip them by the first key.
func (g *gen) common(o obj) obj {
	o["parentUuid"] = g.prev
	o["isSidechain"] = false
	o["userType"] = "external"
	o["entrypoint"] = "cli"
	o["cwd"] = "/tmp/lab/work"
	o["sessionId"] = g.session
	o["version"] = "2.1.328"
	o["gitBranch"] = "HEAD"
	u := g.id()
	o["uuid"] = u
	o["timestamp"] = g.ts()
	g.prev = u
	return o
}

// book writes a bookkeeping line with type as its first key, as the CLI
// does.
func (g *gen) book(typ string, rest obj) {
	b, err := foldgen.KeyFirst("type", typ, rest)
	if err != nil {
		g.Err = err
		return
	}
	g.WriteString(string(b) + "\n")
}

func (g *gen) blob(text string) {
	g.book("api-request-blob", obj{"sessionId": g.session, "hash": fmt.Sprintf("%064x", g.uuid),
		"message": obj{"role": "user", "content": []obj{{"type": "text", "text": text}}}})
}

func (g *gen) turn(turn int) {
	g.book("mode", obj{"mode": "normal", "sessionId": g.session})
	g.book("permission-mode", obj{"permissionMode": "auto", "sessionId": g.session})
	g.book("file-history-snapshot", obj{"messageId": g.id(), "snapshot": obj{"trackedFileBackups": obj{}, "timestamp": g.ts()}, "isSnapshotUpdate": false})
	prompt := g.words(40 + g.Rng.IntN(400))
	g.emit(g.common(obj{"type": "user", "message": obj{"role": "user", "content": prompt}, "permissionMode": "auto", "promptSource": "typed"}))
	// Attachments carry type after a large body: a prompt snapshot per turn.
	g.emit(g.common(obj{"attachment": obj{"type": "prompt_snapshot", "systemPrompt": []string{g.words(20000 + g.Rng.IntN(20000))}}, "type": "attachment"}))
	if turn%20 == 0 {
		g.book("api-request-shape", obj{"sessionId": g.session, "shapeHash": fmt.Sprintf("%064x", turn), "timestamp": g.ts(), "version": "2.1.328",
			"shape": obj{"system": []obj{{"type": "text", "text": g.words(30000)}}, "tools": []obj{{"name": "Bash", "description": g.words(3000)}}}})
	}
	g.blob(prompt)
	g.book("api-request", obj{"sessionId": g.session, "id": g.id(), "timestamp": g.ts(), "querySource": "repl_main_thread", "params": obj{"model": "claude-opus-5-5", "max_tokens": 32000}})

	steps := 1 + g.Rng.IntN(4)
	for s := 0; s < steps; s++ {
		g.msg++
		if g.Rng.IntN(3) == 0 {
			g.assistant(obj{"type": "thinking", "thinking": g.words(500 + g.Rng.IntN(4000)), "signature": "EuYBCkYIBxgCKkB"}, nil)
		}
		g.assistant(obj{"type": "text", "text": g.words(100 + g.Rng.IntN(1500))}, "tool_use")
		switch k := g.Rng.IntN(20); {
		case k == 0:
			g.question()
		case k == 1 && s == steps-1:
			g.plan()
		default:
			g.toolCall()
		}
	}
	g.msg++
	g.assistant(obj{"type": "text", "text": g.words(200 + g.Rng.IntN(2000))}, "end_turn")
	g.emit(g.common(obj{"type": "system", "subtype": "stop_hook_summary", "hookCount": 1, "hookInfos": []obj{}, "hookErrors": []obj{}, "level": "suggestion"}))
	g.emit(g.common(obj{"type": "system", "subtype": "turn_duration", "durationMs": 1000 + g.Rng.IntN(60000), "messageCount": 10, "isMeta": false}))
	g.book("last-prompt", obj{"lastPrompt": prompt[:min(len(prompt), 80)], "sessionId": g.session})
}

func (g *gen) assistant(block obj, stop any) {
	g.emit(g.common(obj{
		"message": obj{"content": []obj{block}, "id": fmt.Sprintf("msg_01%022d", g.msg), "model": "claude-opus-5-5", "role": "assistant",
			"stop_reason": stop, "stop_sequence": nil, "type": "message",
			"usage": obj{"input_tokens": 14178, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 76}},
		"requestId": fmt.Sprintf("req_01%022d", g.msg), "type": "assistant"}))
}

func (g *gen) toolID() string {
	g.tool++
	return fmt.Sprintf("toolu_01%022d", g.tool)
}

func (g *gen) result(id string, content any, toolUseResult any, extra obj) {
	o := obj{"type": "user", "message": obj{"role": "user", "content": []obj{{"type": "tool_result", "tool_use_id": id, "content": content}}},
		"toolUseResult": toolUseResult, "sourceToolAssistantUUID": g.prev}
	for k, v := range extra {
		o[k] = v
	}
	g.emit(g.common(o))
}

func (g *gen) toolCall() {
	id := g.toolID()
	out := g.words(g.OutputSize(g.opt.MaxOutput))
	switch g.Rng.IntN(3) {
	case 0:
		g.assistant(obj{"type": "tool_use", "id": id, "name": "Bash", "input": obj{"command": "go test ./... 2>&1 | tail -50", "description": "Run the tests"}}, "tool_use")
		g.result(id, out, obj{"stdout": out, "stderr": "", "interrupted": false, "isImage": false}, nil)
	case 1:
		g.assistant(obj{"type": "tool_use", "id": id, "name": "Read", "input": obj{"file_path": "/tmp/lab/work/fold.go"}}, "tool_use")
		g.result(id, out, obj{"type": "text", "file": obj{"filePath": "/tmp/lab/work/fold.go", "content": out, "numLines": strings.Count(out, "\n")}}, nil)
	default:
		g.assistant(obj{"type": "tool_use", "id": id, "name": "Write", "input": obj{"file_path": "/tmp/lab/work/notes.md", "content": out}}, "tool_use")
		g.result(id, "File created successfully at: /tmp/lab/work/notes.md", obj{"type": "create", "filePath": "/tmp/lab/work/notes.md", "content": out}, nil)
	}
	g.book("tools-used", obj{"tools": []string{"Bash", "Read", "Write"}, "sessionId": g.session})
	g.blob(out)
}

func (g *gen) question() {
	id := g.toolID()
	q := obj{"question": "Which database should we use?", "header": "Database", "multiSelect": false,
		"options": []obj{{"label": "SQLite", "description": "Embedded, zero setup"}, {"label": "PostgreSQL", "description": "Full-featured server"}}}
	g.assistant(obj{"type": "tool_use", "id": id, "name": "AskUserQuestion", "input": obj{"questions": []obj{q}}}, "tool_use")
	if g.Rng.IntN(4) == 0 {
		g.result(id, "The user doesn't want to proceed with this tool use.", "User rejected tool use", obj{"toolDenialKind": "user-rejected"})
		g.emit(g.common(obj{"type": "user", "message": obj{"role": "user", "content": []obj{{"type": "text", "text": "[Request interrupted by user for tool use]"}}}}))
		return
	}
	g.result(id, `Your questions have been answered: "Which database should we use?"="SQLite".`,
		obj{"questions": []obj{q}, "answers": obj{"Which database should we use?": "SQLite"}, "annotations": obj{}}, nil)
}

func (g *gen) plan() {
	plan := "# Plan\n\n" + g.words(2000+g.Rng.IntN(6000))
	id := g.toolID()
	g.assistant(obj{"type": "tool_use", "id": id, "name": "ExitPlanMode", "input": obj{"plan": plan, "planFilePath": "/tmp/lab/home/.claude/plans/p.md"}}, "tool_use")
	g.result(id, "User has approved your plan. You can now start coding.", obj{"plan": plan, "isAgent": false, "filePath": "/tmp/lab/home/.claude/plans/p.md"}, nil)
}
