package codex

import (
	"lab/internal/conv"
	"lab/internal/foldkit"
	"lab/internal/jsonscan"
)

// meterCount records a token_count event: the session's running totals
// (total_token_usage) and the last request's (last_token_usage), whose
// input is the context in use. Codex counts cached input inside
// input_tokens; the meter wants input not read from the cache apart.
// The event also names the model's context window as the CLI reckons it.
// A count without info (a rate-limit update) changes nothing.
func (f *Fold) meterCount(info []byte) {
	if !jsonscan.IsObject(info) {
		return
	}
	total := jsonscan.Member(info, "total_token_usage")
	if total == nil {
		return
	}
	in := jsonscan.Int(jsonscan.Member(total, "input_tokens"))
	cached := jsonscan.Int(jsonscan.Member(total, "cached_input_tokens"))
	t := foldkit.Tokens{
		Input:      max(in-cached, 0),
		CacheRead:  cached,
		CacheWrite: jsonscan.Int(jsonscan.Member(total, "cache_write_input_tokens")),
		Output:     jsonscan.Int(jsonscan.Member(total, "output_tokens")),
	}
	f.counts++
	last := jsonscan.Int(jsonscan.Member(jsonscan.Member(info, "last_token_usage"), "input_tokens"))
	f.meter.Totals(t, last, f.counts)
	f.meter.SetWindow(jsonscan.Int(jsonscan.Member(info, "model_context_window")))
}

// Usage is what the conversation used of its model (agent.Fold), priced
// from Prices.
func (f *Fold) Usage() *conv.Usage { return f.meter.Usage(Prices) }
