package conv

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
)

// SetHash stamps m.ContentHash from everything visible in m except its seq
// and the hash itself, so the hash changes exactly when the content does.
func (m *Message) SetHash() {
	c := *m
	c.Seq, c.ContentHash = 0, ""
	b, err := json.Marshal(&c)
	if err != nil { // cannot happen for these plain types
		panic(err)
	}
	h := fnv.New64a()
	h.Write(b)
	m.ContentHash = fmt.Sprintf("%016x", h.Sum64())
}
