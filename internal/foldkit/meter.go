package foldkit

import (
	"lab/internal/conv"
	"lab/internal/jsonscan"
)

// Tokens is what one request to the model used, or a session's totals,
// in neutral terms: Input is input not read from the cache, CacheRead and
// CacheWrite the cached input read and written, Context what the request
// sent in all (the context as full as it was).
type Tokens struct {
	Input, Output, CacheRead, CacheWrite, Context int64
}

// Prices tells a model's context window and price per million tokens, as
// of the table's Date; ok false for a model the table does not know.
type Prices func(model string) (window int64, p conv.Price, ok bool)

// PriceTable is an adapter's dated table of its models' windows and
// prices.
type PriceTable struct {
	Date   string // YYYY-MM-DD: when the prices were read
	Lookup Prices
}

// Meter adds up the usage a transcript's records report. Claude Code-like
// CLIs record each request's usage on every line of its reply (Request,
// by the request's id: a record with the id of the latest one replaces
// it); others record running totals (Totals). The model comes from the
// records (SetModel), the window from the CLI when it says (SetWindow),
// else from the adapter's table. Its zero value is ready; a Meter is part
// of a fold's state and as split-safe as the records it is given.
type Meter struct {
	done     Tokens // requests before the latest one
	cur      Tokens // the latest request
	curID    string // the latest request's id, raw
	reqs     int
	model    string
	modelRaw string // model as last given raw (SetModelRaw)
	window   int64  // what the CLI reported, 0 if it did not
	started  bool
}

// Request records the usage of request id, a raw JSON value (a
// replacement when id is the latest one's, so a reply recorded line by
// line counts once). Raw, so the hot path compares bytes and keeps a copy
// only when the request changes (a string: no buffer a copy of the fold's
// state could share).
func (m *Meter) Request(id []byte, t Tokens) {
	if !m.started || len(id) == 0 || string(id) != m.curID {
		m.done = m.done.plus(m.cur)
		m.reqs++
		m.curID = string(id)
	}
	m.cur, m.started = t, true
}

// Totals records a session's running totals (what the CLI summed) and the
// latest request's context.
func (m *Meter) Totals(total Tokens, context int64, requests int) {
	m.done, m.cur = Tokens{}, total
	m.cur.Context = context
	m.curID, m.started = "", true
	m.reqs = max(requests, 1)
}

// SetModel records the model the requests go to.
func (m *Meter) SetModel(model string) {
	if model != "" {
		m.model = model
	}
}

// SetModelRaw records the model from its raw JSON value, decoding it only
// when it changed (a transcript names it on every line).
func (m *Meter) SetModelRaw(raw []byte) {
	if len(raw) == 0 || string(raw) == m.modelRaw {
		return
	}
	m.modelRaw = string(raw)
	if s, ok := jsonscan.String(raw); ok {
		m.SetModel(s)
	}
}

// Model is the model last recorded.
func (m *Meter) Model() string { return m.model }

// SetWindow records the context window the CLI reported.
func (m *Meter) SetWindow(n int64) {
	if n > 0 {
		m.window = n
	}
}

// Usage returns the usage so far with table's window and price, nil when
// no usage was recorded yet.
func (m *Meter) Usage(table PriceTable) *conv.Usage {
	if !m.started {
		return nil
	}
	all := m.done.plus(m.cur)
	u := &conv.Usage{
		Model: m.model, ContextTokens: m.cur.Context, ContextWindow: m.window,
		InputTokens: all.Input, OutputTokens: all.Output, CacheReadTokens: all.CacheRead, CacheWriteTokens: all.CacheWrite,
		Requests: m.reqs,
	}
	if table.Lookup == nil || m.model == "" {
		return u
	}
	if window, price, ok := table.Lookup(m.model); ok {
		if u.ContextWindow == 0 {
			u.ContextWindow = window
		}
		u.CostUSD, u.PriceDate, u.Estimate = price.Cost(u), table.Date, true
	}
	return u
}

func (t Tokens) plus(o Tokens) Tokens {
	return Tokens{Input: t.Input + o.Input, Output: t.Output + o.Output, CacheRead: t.CacheRead + o.CacheRead, CacheWrite: t.CacheWrite + o.CacheWrite}
}
