package chat

import (
	"container/list"
	"sync"

	"lab/internal/agent"
)

// viewCache keeps the folded views of transcripts nobody tails (history
// sessions, ended runs) so paging through one folds it once. A view found
// in the cache is re-synced on use, which folds only what was appended.
// The cache is bounded by entry count and by the transcript bytes its
// views cover, since a view's memory grows with its transcript.
type viewCache struct {
	maxEntries int
	maxBytes   int64

	mu    sync.Mutex
	order *list.List // of *View, most recently used at the front
	byKey map[string]*list.Element
}

func newViewCache(maxEntries int, maxBytes int64) *viewCache {
	return &viewCache{maxEntries: maxEntries, maxBytes: maxBytes, order: list.New(), byKey: map[string]*list.Element{}}
}

// get returns the cached view of path, creating it with newFold's folds
// when absent.
func (c *viewCache) get(path string, newFold func() agent.Fold) *View {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[path]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*View)
	}
	v := NewView(path, newFold, nil)
	c.byKey[path] = c.order.PushFront(v)
	return v
}

// trim evicts least recently used views until the bounds hold, always
// keeping the most recent one.
func (c *viewCache) trim() {
	c.mu.Lock()
	defer c.mu.Unlock()
	var total int64
	for e := c.order.Front(); e != nil; e = e.Next() {
		total += e.Value.(*View).Bytes()
	}
	for c.order.Len() > 1 && (c.order.Len() > c.maxEntries || total > c.maxBytes) {
		e := c.order.Back()
		v := e.Value.(*View)
		total -= v.Bytes()
		c.order.Remove(e)
		delete(c.byKey, v.Path())
	}
}

// len returns the number of cached views.
func (c *viewCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
