package chat

import (
	"slices"
	"sync"

	"lab/internal/conv"
)

// DefaultIntentsMax bounds how many intents an Intents keeps. An intent is
// only useful until its dialog's resolution is folded, seconds after the
// answer; the bound keeps a long-lived server's memory flat.
const DefaultIntentsMax = 512

// Intents remembers, per tool_id, the outcome lab meant an answer to
// record, so the fold can warn when the transcript recorded something else
// (a wrong row, a terminal answer racing lab's, a timeout). It is advisory
// and in memory only: a restart forgets it, and nothing is gated on it.
// Safe for concurrent use.
type Intents struct {
	mu    sync.Mutex
	max   int
	m     map[string]*conv.Outcome
	order []string // insertion order, oldest first, for eviction
}

// NewIntents returns an empty registry holding at most DefaultIntentsMax
// intents, evicting the oldest.
func NewIntents() *Intents { return newIntents(DefaultIntentsMax) }

func newIntents(max int) *Intents {
	return &Intents{max: max, m: make(map[string]*conv.Outcome)}
}

// Record remembers want as the intended outcome of toolID, replacing any
// earlier intent for it. A nil want records nothing.
func (i *Intents) Record(toolID string, want *conv.Outcome) {
	if toolID == "" || want == nil {
		return
	}
	c := cloneOutcome(want)
	i.mu.Lock()
	defer i.mu.Unlock()
	if _, ok := i.m[toolID]; ok {
		i.removeLocked(toolID)
	}
	i.m[toolID] = c
	i.order = append(i.order, toolID)
	for len(i.order) > i.max {
		delete(i.m, i.order[0])
		i.order = i.order[1:]
	}
}

// Lookup returns the intended outcome of toolID. Its signature is the
// folds' intents hook (agent.Fold.SetIntents).
func (i *Intents) Lookup(toolID string) (*conv.Outcome, bool) {
	i.mu.Lock()
	defer i.mu.Unlock()
	o, ok := i.m[toolID]
	if !ok {
		return nil, false
	}
	return cloneOutcome(o), true
}

// Forget drops the intent of toolID: lab abandoned the answer before its
// committing key, so whatever lands was not lab's doing.
func (i *Intents) Forget(toolID string) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if _, ok := i.m[toolID]; ok {
		i.removeLocked(toolID)
	}
}

// Len returns how many intents are held.
func (i *Intents) Len() int {
	i.mu.Lock()
	defer i.mu.Unlock()
	return len(i.m)
}

func (i *Intents) removeLocked(toolID string) {
	delete(i.m, toolID)
	for k, id := range i.order {
		if id == toolID {
			i.order = append(i.order[:k], i.order[k+1:]...)
			break
		}
	}
}

func cloneOutcome(o *conv.Outcome) *conv.Outcome {
	c := *o
	c.Results = slices.Clone(o.Results)
	for k := range c.Results {
		c.Results[k].Chosen = slices.Clone(c.Results[k].Chosen)
	}
	return &c
}
