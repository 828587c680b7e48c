package fakecodexapi

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"lab/internal/fakeapi"
)

// response is a turn with ids assigned, ready to send.
type response struct {
	id    string
	items []sentItem
	used  fakeapi.Usage // what it reports (usage)
}

type sentItem struct {
	outItem
	id     string // the item id
	callID string // function and custom tool calls
	args   string // function arguments as JSON
}

func (s *Server) materialize(t turn) response {
	r := response{id: s.ID("resp_")}
	for _, it := range t {
		si := sentItem{outItem: it}
		switch it.kind {
		case "function_call":
			si.id, si.callID, si.args = s.ID("fc_"), s.ID("call_"), mustJSON(it.args)
		case "custom_tool_call":
			si.id, si.callID = s.ID("ctc_"), s.ID("call_")
		case "reasoning":
			si.id = s.ID("rs_")
		default:
			si.id = s.ID("msg_")
		}
		r.items = append(r.items, si)
	}
	return r
}

// added is the item as response.output_item.added announces it: empty.
func (it sentItem) added() map[string]any {
	switch it.kind {
	case "function_call":
		return map[string]any{"type": "function_call", "id": it.id, "call_id": it.callID, "name": it.name, "arguments": "", "status": "in_progress"}
	case "custom_tool_call":
		return map[string]any{"type": "custom_tool_call", "id": it.id, "call_id": it.callID, "name": it.name, "input": "", "status": "in_progress"}
	case "reasoning":
		return map[string]any{"type": "reasoning", "id": it.id, "summary": []any{}}
	default:
		return map[string]any{"type": "message", "id": it.id, "role": "assistant", "status": "in_progress", "content": []any{}}
	}
}

// done is the whole item, as response.output_item.done and a non-streamed
// response carry it.
func (it sentItem) done() map[string]any {
	switch it.kind {
	case "function_call":
		return map[string]any{"type": "function_call", "id": it.id, "call_id": it.callID, "name": it.name, "arguments": it.args, "status": "completed"}
	case "custom_tool_call":
		return map[string]any{"type": "custom_tool_call", "id": it.id, "call_id": it.callID, "name": it.name, "input": it.text, "status": "completed"}
	case "reasoning":
		return map[string]any{"type": "reasoning", "id": it.id, "summary": []any{map[string]any{"type": "summary_text", "text": it.text}}}
	default:
		return map[string]any{"type": "message", "id": it.id, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": it.text, "annotations": []any{}}}}
	}
}

func (r response) outputTokens() int {
	n := 1
	for _, it := range r.items {
		n += (len(it.text) + len(it.args)) / 4
	}
	return n
}

// usage is the response's usage as the Responses API reports it: cached
// input inside input_tokens.
func (r response) usage() map[string]any {
	u := r.used
	in := u.Input + u.CacheRead
	return map[string]any{
		"input_tokens": in, "input_tokens_details": map[string]any{"cached_tokens": u.CacheRead},
		"output_tokens": u.Output, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens": in + u.Output,
	}
}

// object is the response object in state status.
func (r response) object(status, model string) map[string]any {
	o := map[string]any{"id": r.id, "object": "response", "status": status, "model": model, "output": []any{}}
	if status == "completed" {
		out := make([]any, 0, len(r.items))
		for _, it := range r.items {
			out = append(out, it.done())
		}
		o["output"] = out
		o["usage"] = r.usage()
	}
	return o
}

// stream sends r as Responses API server-sent events. Slow text goes out
// a word at a time with delay between; everything else in a few chunks.
func (r response) stream(st *stream, model string, delay time.Duration) error {
	if err := st.send(map[string]any{"type": "response.created", "response": r.object("in_progress", model)}); err != nil {
		return err
	}
	if err := st.send(map[string]any{"type": "response.in_progress", "response": r.object("in_progress", model)}); err != nil {
		return err
	}
	for i, it := range r.items {
		if err := st.send(map[string]any{"type": "response.output_item.added", "output_index": i, "item": it.added()}); err != nil {
			return err
		}
		var deltas []map[string]any
		switch it.kind {
		case "function_call":
			for _, c := range fakeapi.Chunks(it.args, 3) {
				deltas = append(deltas, map[string]any{"type": "response.function_call_arguments.delta", "item_id": it.id, "output_index": i, "delta": c})
			}
		case "custom_tool_call":
			for _, c := range fakeapi.Chunks(it.text, 3) {
				deltas = append(deltas, map[string]any{"type": "response.custom_tool_call_input.delta", "item_id": it.id, "output_index": i, "delta": c})
			}
		case "reasoning":
			deltas = append(deltas, map[string]any{"type": "response.reasoning_summary_part.added", "item_id": it.id, "output_index": i, "summary_index": 0,
				"part": map[string]any{"type": "summary_text", "text": ""}})
			for _, c := range fakeapi.Chunks(it.text, 2) {
				deltas = append(deltas, map[string]any{"type": "response.reasoning_summary_text.delta", "item_id": it.id, "output_index": i, "summary_index": 0, "delta": c})
			}
		default:
			parts := fakeapi.Chunks(it.text, 2)
			if it.slow {
				parts = fakeapi.Words(it.text)
			}
			for _, c := range parts {
				deltas = append(deltas, map[string]any{"type": "response.output_text.delta", "item_id": it.id, "output_index": i, "content_index": 0, "delta": c})
			}
		}
		for _, d := range deltas {
			if it.slow {
				if err := st.Sleep(delay); err != nil {
					return err
				}
			}
			if err := st.send(d); err != nil {
				return err
			}
		}
		if err := st.send(map[string]any{"type": "response.output_item.done", "output_index": i, "item": it.done()}); err != nil {
			return err
		}
	}
	return st.send(map[string]any{"type": "response.completed", "response": r.object("completed", model)})
}

// stream writes the Responses API's server-sent events: each named after
// its type and numbered, their request id in x-request-id.
type stream struct {
	*fakeapi.SSE
	seq int
}

func newStream(w http.ResponseWriter, ctx context.Context) *stream {
	return &stream{SSE: fakeapi.NewSSE(w, ctx, "x-request-id")}
}

// send writes one event named after its type, numbering it.
func (st *stream) send(ev map[string]any) error {
	ev["sequence_number"] = st.seq
	st.seq++
	return st.Send(fmt.Sprint(ev["type"]), ev)
}
