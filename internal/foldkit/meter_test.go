package foldkit

import (
	"testing"

	"lab/internal/conv"
)

var testPrices = PriceTable{Date: "2026-12-01", Lookup: func(model string) (int64, conv.Price, bool) {
	if model == "m" {
		return 1000, conv.Price{Input: 1e6, Output: 2e6}, true // a dollar a token in, two out
	}
	return 0, conv.Price{}, false
}}

func TestMeterCountsEachRequestOnce(t *testing.T) {
	var m Meter
	if m.Usage(testPrices) != nil {
		t.Fatal("a meter that saw nothing reports usage")
	}
	m.SetModel("m")
	// A reply recorded over three lines, its figures growing, then another.
	m.Request([]byte(`"a"`), Tokens{Input: 10, Output: 1, Context: 10})
	m.Request([]byte(`"a"`), Tokens{Input: 10, Output: 5, Context: 10})
	m.Request([]byte(`"a"`), Tokens{Input: 10, Output: 7, Context: 10})
	m.Request([]byte(`"b"`), Tokens{Input: 3, CacheRead: 20, Output: 2, Context: 23})
	u := m.Usage(testPrices)
	want := conv.Usage{Model: "m", ContextTokens: 23, ContextWindow: 1000, InputTokens: 13, OutputTokens: 9, CacheReadTokens: 20, Requests: 2, CostUSD: 13 + 18, PriceDate: "2026-12-01", Estimate: true}
	if *u != want {
		t.Fatalf("usage %+v; want %+v", *u, want)
	}
	// The CLI's own window wins over the table's; an unknown model has no cost.
	m.SetWindow(500)
	m.SetModelRaw([]byte(`"other"`))
	u = m.Usage(testPrices)
	if u.ContextWindow != 500 || u.CostUSD != 0 || u.Estimate || u.Model != "other" {
		t.Fatalf("usage %+v; want window 500, no cost, model other", *u)
	}
}

func TestMeterTotalsReplace(t *testing.T) {
	var m Meter
	m.SetModel("m")
	m.Totals(Tokens{Input: 5, Output: 1}, 5, 1)
	m.Totals(Tokens{Input: 9, CacheRead: 4, Output: 3}, 7, 2)
	u := m.Usage(testPrices)
	if u.InputTokens != 9 || u.CacheReadTokens != 4 || u.OutputTokens != 3 || u.ContextTokens != 7 || u.Requests != 2 {
		t.Fatalf("usage %+v; want the latest totals and context", *u)
	}
}
