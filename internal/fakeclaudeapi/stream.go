package fakeclaudeapi

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"lab/internal/fakeapi"
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
	m := message{id: s.ID("msg_")}
	for _, b := range t {
		sb := sentBlock{outBlock: b}
		if b.kind == "tool_use" {
			sb.id = s.ID("toolu_")
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

func usage(u fakeapi.Usage, out int) map[string]any {
	return map[string]any{"input_tokens": u.Input, "output_tokens": out, "cache_creation_input_tokens": u.CacheWrite, "cache_read_input_tokens": u.CacheRead}
}

// json is the whole message for a non-streaming request.
func (m message) json(model string, u fakeapi.Usage) map[string]any {
	content := make([]any, 0, len(m.blocks))
	for _, b := range m.blocks {
		content = append(content, b.full())
	}
	return map[string]any{
		"id": m.id, "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": m.stopReason(), "stop_sequence": nil,
		"usage": usage(u, m.outputTokens()),
	}
}

// stream sends m as Messages API server-sent events. Slow text blocks go
// out a word at a time with delay between; everything else in a few
// chunks, as the real API does.
func (m message) stream(st *stream, model string, u fakeapi.Usage, delay time.Duration) error {
	err := st.Send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": m.id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage(u, 1),
	}})
	if err != nil {
		return err
	}
	for i, b := range m.blocks {
		if err := st.Send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": b.start()}); err != nil {
			return err
		}
		var deltas []map[string]any
		switch b.kind {
		case "tool_use":
			for _, c := range fakeapi.Chunks(b.input, 3) {
				deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": c})
			}
		case "thinking":
			for _, c := range fakeapi.Chunks(b.text, 2) {
				deltas = append(deltas, map[string]any{"type": "thinking_delta", "thinking": c})
			}
			deltas = append(deltas, map[string]any{"type": "signature_delta", "signature": signature})
		default:
			parts := fakeapi.Chunks(b.text, 2)
			if b.slow {
				parts = fakeapi.Words(b.text)
			}
			for _, c := range parts {
				deltas = append(deltas, map[string]any{"type": "text_delta", "text": c})
			}
		}
		for _, d := range deltas {
			if b.slow {
				if err := st.Sleep(delay); err != nil {
					return err
				}
			}
			if err := st.Send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d}); err != nil {
				return err
			}
		}
		if err := st.Send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i}); err != nil {
			return err
		}
	}
	if err := st.Send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": m.stopReason(), "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": m.outputTokens()}}); err != nil {
		return err
	}
	return st.Send("message_stop", map[string]any{"type": "message_stop"})
}

// stream writes the Messages API's server-sent events: named events,
// their request id in request-id.
type stream = fakeapi.SSE

func newStream(w http.ResponseWriter, ctx context.Context) *stream {
	return fakeapi.NewSSE(w, ctx, "request-id")
}
