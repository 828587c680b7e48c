package claude

import (
	"regexp"
	"strings"

	"lab/internal/conv"
	"lab/internal/foldkit"
)

// Prices are the models' context windows and prices per million tokens
// (input, output, 5-minute cache writes, cache reads) as Claude Code
// 2.1.332's own model catalog lists them, read on the date below; the
// cost lab shows from them is an estimate. Haiku 5.5 costs more above
// 100k tokens of prompt, which the table leaves out.
var Prices = foldkit.PriceTable{Date: "2026-12-01", Lookup: lookupPrice}

type modelPrice struct {
	window int64
	price  conv.Price
}

var (
	tier2x10       = conv.Price{Input: 2, Output: 10, CacheWrite: 2.5, CacheRead: 0.2}
	tier2x10cr010  = conv.Price{Input: 2, Output: 10, CacheWrite: 2.5, CacheRead: 0.1}
	tier3x15       = conv.Price{Input: 3, Output: 15, CacheWrite: 3.75, CacheRead: 0.3}
	tier4x20cr020  = conv.Price{Input: 4, Output: 20, CacheWrite: 5, CacheRead: 0.2}
	tier5x25       = conv.Price{Input: 5, Output: 25, CacheWrite: 6.25, CacheRead: 0.5}
	tier8x40cr020  = conv.Price{Input: 8, Output: 40, CacheWrite: 10, CacheRead: 0.2}
	tier10x50      = conv.Price{Input: 10, Output: 50, CacheWrite: 12.5, CacheRead: 1}
	tier10x50cr025 = conv.Price{Input: 10, Output: 50, CacheWrite: 12.5, CacheRead: 0.25}
	tier15x75      = conv.Price{Input: 15, Output: 75, CacheWrite: 18.75, CacheRead: 1.5}
	haiku35        = conv.Price{Input: 0.8, Output: 4, CacheWrite: 1, CacheRead: 0.08}
	haiku45        = conv.Price{Input: 1, Output: 5, CacheWrite: 1.25, CacheRead: 0.1}
	haiku55        = conv.Price{Input: 0.1, Output: 0.5, CacheWrite: 0.125, CacheRead: 0.01}
)

const (
	window200k = 200_000
	window1m   = 1_000_000
)

// modelPrices are keyed by the catalog's model id (no date suffix).
var modelPrices = map[string]modelPrice{
	"claude-3-5-haiku":  {window200k, haiku35},
	"claude-haiku-4-5":  {window200k, haiku45},
	"claude-haiku-5-5":  {window1m, haiku55},
	"claude-3-5-sonnet": {window200k, tier3x15},
	"claude-3-7-sonnet": {window200k, tier3x15},
	"claude-sonnet-4-0": {window200k, tier3x15},
	"claude-sonnet-4":   {window200k, tier3x15},
	"claude-sonnet-4-5": {window200k, tier3x15},
	"claude-sonnet-4-6": {window200k, tier3x15},
	"claude-sonnet-5":   {window1m, tier2x10},
	"claude-sonnet-5-5": {window1m, tier2x10cr010},
	"claude-opus-4-0":   {window200k, tier15x75},
	"claude-opus-4":     {window200k, tier15x75},
	"claude-opus-4-1":   {window200k, tier15x75},
	"claude-opus-4-5":   {window200k, tier5x25},
	"claude-opus-4-6":   {window200k, tier5x25},
	"claude-opus-4-7":   {window1m, tier5x25},
	"claude-opus-4-8":   {window1m, tier5x25},
	"claude-opus-5":     {window1m, tier5x25},
	"claude-opus-5-5":   {window1m, tier4x20cr020},
	"claude-fable-5":    {window1m, tier10x50},
	"claude-fable-5-1":  {window1m, tier10x50cr025},
	"claude-fable-5-2":  {window1m, tier8x40cr020},
	"claude-mythos-5":   {window1m, tier10x50},
	"claude-mythos-5-1": {window1m, tier10x50cr025},
	"claude-mythos-5-2": {window1m, tier8x40cr020},
}

// dateSuffixRE is the release date a full model name ends in
// ("claude-haiku-4-5-20251001").
var dateSuffixRE = regexp.MustCompile(`-\d{8}$`)

// lookupPrice finds a model the transcript names: the catalog id itself,
// or a dated, provider-prefixed ("us.anthropic.…", "…@20251001", "…-v1:0")
// or 1M-context ("…[1m]") name of one.
func lookupPrice(model string) (int64, conv.Price, bool) {
	m := strings.ToLower(model)
	long := strings.HasSuffix(m, "[1m]")
	m = strings.TrimSuffix(m, "[1m]")
	if i := strings.Index(m, "claude-"); i > 0 {
		m = m[i:]
	}
	if i := strings.IndexAny(m, "@:"); i > 0 {
		m = m[:i]
	}
	m = strings.TrimSuffix(m, "-v1")
	m = dateSuffixRE.ReplaceAllString(m, "")
	p, ok := modelPrices[m]
	if !ok {
		return 0, conv.Price{}, false
	}
	if long {
		p.window = window1m
	}
	return p.window, p.price, true
}
