package claude

import (
	"bytes"

	"lab/internal/conv"
	"lab/internal/foldkit"
	"lab/internal/jsonscan"
)

// meterRequest records the usage an assistant line reports. The CLI
// writes a reply line by line (a block each), every line with the
// request's usage so far; lines of one reply share its message id, so the
// meter counts each request once, at its latest figures. The context in
// use is what the request sent: its input, cache writes and cache reads.
// Lines of the CLI's own making (model "<synthetic>", API errors) carry
// no usage worth counting.
func (f *Fold) meterRequest(m *foldMessage) {
	if m.usage == nil {
		return
	}
	if bytes.Contains(m.model, []byte("synthetic")) && jsonscan.Str(m.model) == syntheticModel {
		return
	}
	f.meter.SetModelRaw(m.model)
	in := jsonscan.Int(jsonscan.Member(m.usage, "input_tokens"))
	cw := jsonscan.Int(jsonscan.Member(m.usage, "cache_creation_input_tokens"))
	cr := jsonscan.Int(jsonscan.Member(m.usage, "cache_read_input_tokens"))
	f.meter.Request(m.id, foldkit.Tokens{
		Input: in, CacheWrite: cw, CacheRead: cr, Context: in + cw + cr,
		Output: jsonscan.Int(jsonscan.Member(m.usage, "output_tokens")),
	})
}

// syntheticModel is the model the CLI names on replies it writes itself
// (an interrupt, an API error), not the model's.
const syntheticModel = "<synthetic>"

// Usage is what the conversation used of its model (agent.Fold), priced
// from Prices.
func (f *Fold) Usage() *conv.Usage { return f.meter.Usage(Prices) }
