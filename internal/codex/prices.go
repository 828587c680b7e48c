package codex

import (
	"strings"

	"lab/internal/conv"
	"lab/internal/foldkit"
)

// Prices are OpenAI's standard prices per million tokens (input, cached
// input, output) of the models Codex runs, as OpenAI's pricing page
// listed them on the date below (read from public summaries of it); the
// cost lab shows from them is an estimate. The CLI itself reports each
// model's context window, which the table therefore leaves out.
var Prices = foldkit.PriceTable{Date: "2026-06-04", Lookup: lookupPrice}

var modelPrices = map[string]conv.Price{
	"gpt-5.5":      {Input: 5, CacheRead: 0.5, Output: 30},
	"gpt-5.5-pro":  {Input: 30, CacheRead: 30, Output: 180},
	"gpt-5.4":      {Input: 2.5, CacheRead: 0.25, Output: 15},
	"gpt-5.4-mini": {Input: 0.75, CacheRead: 0.075, Output: 4.5},
	"gpt-5.4-nano": {Input: 0.2, CacheRead: 0.02, Output: 1.25},
	"gpt-5.4-pro":  {Input: 30, CacheRead: 30, Output: 180},
}

// lookupPrice finds a model by its name, a dated snapshot's too
// ("gpt-5.4-2026-03-05").
func lookupPrice(model string) (int64, conv.Price, bool) {
	m := strings.ToLower(model)
	if p, ok := modelPrices[m]; ok {
		return 0, p, true
	}
	if len(m) > 11 && m[len(m)-11] == '-' {
		if p, ok := modelPrices[m[:len(m)-11]]; ok {
			return 0, p, true
		}
	}
	return 0, conv.Price{}, false
}
