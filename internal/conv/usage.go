package conv

// Usage is what a conversation used of its model, from the usage its CLI
// recorded: how full the context is now, the tokens of the whole session,
// and an estimated cost. Cost is an estimate from a dated price table
// (PriceDate), never a bill: absent when the model is not in the table.
type Usage struct {
	Model string `json:"model,omitempty"`
	// ContextTokens is what the last request sent (input and cached
	// input): the context as full as it is now. ContextWindow is the
	// model's window, 0 when unknown.
	ContextTokens int64 `json:"context_tokens"`
	ContextWindow int64 `json:"context_window,omitempty"`
	// Totals over the session's requests. InputTokens counts input not
	// read from the cache; CacheReadTokens and CacheWriteTokens the
	// cached input read and written.
	InputTokens      int64 `json:"input_tokens"`
	OutputTokens     int64 `json:"output_tokens"`
	CacheReadTokens  int64 `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int64 `json:"cache_write_tokens,omitempty"`
	Requests         int   `json:"requests"`
	// CostUSD is the estimated cost in US dollars; PriceDate the date of
	// the price table it was estimated from (YYYY-MM-DD).
	CostUSD   float64 `json:"cost_usd,omitempty"`
	PriceDate string  `json:"price_date,omitempty"`
	Estimate  bool    `json:"estimate,omitempty"` // always true when CostUSD is set
}

// Full is how full the context is, from 0 to 1 (more when the CLI
// reported more than the window), or 0 when the window is unknown.
func (u *Usage) Full() float64 {
	if u == nil || u.ContextWindow <= 0 {
		return 0
	}
	return float64(u.ContextTokens) / float64(u.ContextWindow)
}

// FullWarning is how full a context is when the operator is warned (and
// offered a compaction).
const FullWarning = 0.8

// Price is what a model costs per million tokens, in US dollars.
type Price struct {
	Input      float64
	Output     float64
	CacheRead  float64
	CacheWrite float64
}

// Cost estimates what tokens cost at p.
func (p Price) Cost(u *Usage) float64 {
	return (float64(u.InputTokens)*p.Input + float64(u.OutputTokens)*p.Output +
		float64(u.CacheReadTokens)*p.CacheRead + float64(u.CacheWriteTokens)*p.CacheWrite) / 1e6
}
