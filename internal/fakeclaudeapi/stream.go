package fakeclaudeapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// message is a turn with ids assigned, ready to send.
type message struct {
	id     string
	blocks []sentBlock
}

type sentBlock struct {
	outBlock
	id    string // tool_use id
	input string // tool input JSON
}

func (s *Server) materialize(t turn) message {
	m := message{id: s.id("msg_")}
	for _, b := range t {
		sb := sentBlock{outBlock: b}
		if b.kind == "tool_use" {
			sb.id = s.id("toolu_")
			in, err := json.Marshal(b.input)
			if err != nil {
				panic(err) // scripts are static Go values
			}
			sb.input = string(in)
		}
		m.blocks = append(m.blocks, sb)
	}
	return m
}

func (m message) stopReason() string {
	for _, b := range m.blocks {
		if b.kind == "tool_use" {
			return "tool_use"
		}
	}
	return "end_turn"
}

func (m message) outputTokens() int {
	n := 1
	for _, b := range m.blocks {
		n += (len(b.text) + len(b.input)) / 4
	}
	return n
}

// signature is what the thinking blocks carry; the CLI stores and resends
// it but cannot verify it against a fake.
const signature = "bGFiLXNjcmlwdGVkLXNpZ25hdHVyZQ=="

func (b sentBlock) start() map[string]any {
	switch b.kind {
	case "tool_use":
		return map[string]any{"type": "tool_use", "id": b.id, "name": b.name, "input": map[string]any{}}
	case "thinking":
		return map[string]any{"type": "thinking", "thinking": "", "signature": ""}
	default:
		return map[string]any{"type": "text", "text": ""}
	}
}

// full is the block as a non-streaming reply carries it.
func (b sentBlock) full() map[string]any {
	switch b.kind {
	case "tool_use":
		return map[string]any{"type": "tool_use", "id": b.id, "name": b.name, "input": json.RawMessage(b.input)}
	case "thinking":
		return map[string]any{"type": "thinking", "thinking": b.text, "signature": signature}
	default:
		return map[string]any{"type": "text", "text": b.text}
	}
}

func usage(in, out int) map[string]any {
	return map[string]any{"input_tokens": in, "output_tokens": out, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
}

// json is the whole message for a non-streaming request.
func (m message) json(model string, inTokens int) map[string]any {
	content := make([]any, 0, len(m.blocks))
	for _, b := range m.blocks {
		content = append(content, b.full())
	}
	return map[string]any{
		"id": m.id, "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": m.stopReason(), "stop_sequence": nil,
		"usage": usage(inTokens, m.outputTokens()),
	}
}

// stream sends m as Messages API server-sent events. Slow text blocks go
// out a word at a time with delay between; everything else in a few
// chunks, as the real API does.
func (m message) stream(st *stream, model string, inTokens int, delay time.Duration) error {
	err := st.send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": m.id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage(inTokens, 1),
	}})
	if err != nil {
		return err
	}
	for i, b := range m.blocks {
		if err := st.send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": b.start()}); err != nil {
			return err
		}
		var deltas []map[string]any
		switch b.kind {
		case "tool_use":
			for _, c := range chunks(b.input, 3) {
				deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": c})
			}
		case "thinking":
			for _, c := range chunks(b.text, 2) {
				deltas = append(deltas, map[string]any{"type": "thinking_delta", "thinking": c})
			}
			deltas = append(deltas, map[string]any{"type": "signature_delta", "signature": signature})
		default:
			parts := chunks(b.text, 2)
			if b.slow {
				parts = words(b.text)
			}
			for _, c := range parts {
				deltas = append(deltas, map[string]any{"type": "text_delta", "text": c})
			}
		}
		for _, d := range deltas {
			if b.slow {
				if err := st.sleep(delay); err != nil {
					return err
				}
			}
			if err := st.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d}); err != nil {
				return err
			}
		}
		if err := st.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i}); err != nil {
			return err
		}
	}
	if err := st.send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": m.stopReason(), "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": m.outputTokens()}}); err != nil {
		return err
	}
	return st.send("message_stop", map[string]any{"type": "message_stop"})
}

// chunks cuts s into at most n pieces of about equal size, on rune
// boundaries.
func chunks(s string, n int) []string {
	if s == "" {
		return nil
	}
	r := []rune(s)
	size := (len(r) + n - 1) / n
	var out []string
	for i := 0; i < len(r); i += size {
		out = append(out, string(r[i:min(i+size, len(r))]))
	}
	return out
}

// words cuts s after each space, keeping every byte.
func words(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// stream writes server-sent events, flushing each.
type stream struct {
	w   http.ResponseWriter
	ctx context.Context
	rc  *http.ResponseController
}

func newStream(w http.ResponseWriter, ctx context.Context) *stream {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("request-id", "req_lab_scripted")
	w.WriteHeader(http.StatusOK)
	return &stream{w: w, ctx: ctx, rc: http.NewResponseController(w)}
}

func (st *stream) send(event string, data any) error {
	if err := st.ctx.Err(); err != nil {
		return err
	}
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(st.w, "event: %s\ndata: %s\n\n", event, b); err != nil {
		return err
	}
	return st.rc.Flush()
}

// sleep pauses for d unless the client goes away first.
func (st *stream) sleep(d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-st.ctx.Done():
		return st.ctx.Err()
	case <-t.C:
		return nil
	}
}
