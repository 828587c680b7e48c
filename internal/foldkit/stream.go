package foldkit

import (
	"maps"
	"slices"
	"time"

	"lab/internal/conv"
)

// chunk is how many messages one storage chunk holds. Chunked storage
// keeps an append O(1) without ever copying the whole stream, so one new
// line costs the same on a long transcript as on a short one.
const chunk = 1024

// Stream is the chat stream a fold builds: the messages with their seqs
// and hashes, the calls filed by id, the pending dialogs and running
// tools, and the state the records imply. An adapter's Fold embeds it;
// its methods of the agent.Fold interface (Len, SessionID, TakeBackpatch,
// Resolved, Messages, SetIntents, State, PendingDialog, Running, Settings) serve
// the fold's readers, the others its line rules.
//
// A Stream is not safe for concurrent use; callers lock.
type Stream struct {
	chunks [][]conv.Message
	n      int

	calls    map[string]int  // call id -> index of its tool or dialog message
	orphans  map[string]bool // results whose call was never seen
	pending  []int           // indexes of pending dialogs, oldest first
	running  []int           // indexes of tools without a result yet, oldest first
	tail     conv.State      // what the last state-moving record implies
	intents  func(toolID string) (*conv.Outcome, bool)
	session  string
	settings conv.Settings // the permission mode and model last recorded
	source   string        // what the desync warning calls the file: "transcript", "rollout"
	backMark int           // Len at the previous TakeBackpatch
	backMin  int           // lowest changed seq <= backMark since then, 0 if none
}

// NewStream returns an empty stream. source names the CLI's file in the
// desync warning ("the transcript recorded …").
func NewStream(source string) Stream {
	return Stream{calls: map[string]int{}, orphans: map[string]bool{}, tail: conv.StateIdle, source: source}
}

// Len returns the number of messages, which is also the last seq.
func (s *Stream) Len() int { return s.n }

// SessionID returns the conversation id the file's lines carry (the last
// one seen), or "".
func (s *Stream) SessionID() string { return s.session }

// SetSession records the conversation id the lines carry.
func (s *Stream) SetSession(id string) { s.session = id }

// Settings returns the permission mode and model the file last recorded.
func (s *Stream) Settings() conv.Settings { return s.settings }

// SetMode and SetModel record what a line says the CLI uses now; an empty
// value records nothing.
func (s *Stream) SetMode(m string) {
	if m != "" {
		s.settings.Mode = m
	}
}

func (s *Stream) SetModel(m string) {
	if m != "" {
		s.settings.Model = m
	}
}

// At returns the message at index i (seq i+1), to change in place; a
// change to a message already pushed must be followed by Changed.
func (s *Stream) At(i int) *conv.Message { return &s.chunks[i/chunk][i%chunk] }

// Push appends m with the next seq and its hash, returning its index.
func (s *Stream) Push(m conv.Message) int {
	if s.n%chunk == 0 {
		s.chunks = append(s.chunks, nil)
	}
	m.Seq = s.n + 1
	m.SetHash()
	c := &s.chunks[len(s.chunks)-1]
	*c = append(*c, m)
	s.n++
	return s.n - 1
}

// PushLifecycle appends a lifecycle note.
func (s *Stream) PushLifecycle(level conv.Level, text string, t time.Time) {
	s.Push(conv.Message{Kind: conv.KindLifecycle, Time: t, Lifecycle: &conv.Lifecycle{Level: level, Text: text}})
}

// Changed re-stamps the hash of the message at index i after an in-place
// change and remembers it for TakeBackpatch when it lies behind the mark.
func (s *Stream) Changed(i int) {
	m := s.At(i)
	m.SetHash()
	if m.Seq <= s.backMark && (s.backMin == 0 || m.Seq < s.backMin) {
		s.backMin = m.Seq
	}
}

// TakeBackpatch returns the lowest seq whose content changed although it
// was already at or below Len at the previous call (a tool got its
// result, a dialog its outcome), or 0 if none did, and resets the mark to
// Len.
func (s *Stream) TakeBackpatch() int {
	b := s.backMin
	s.backMin = 0
	s.backMark = s.n
	return b
}

// Messages returns a window of the stream with conv.Query's semantics:
// with after == 0, the newest limit messages with seq < before (before 0
// meaning no bound); otherwise the oldest limit with seq > after (and
// < before when before > 0). limit <= 0 means no limit. hasMoreBefore
// says whether messages older than the window exist. The messages are
// copies the caller may keep.
func (s *Stream) Messages(after, before, limit int) (msgs []conv.Message, hasMoreBefore bool) {
	lo, hi := max(after+1, 1), s.n // seqs, inclusive
	if before > 0 {
		hi = min(hi, before-1)
	}
	if lo > hi {
		return []conv.Message{}, false
	}
	if limit > 0 && hi-lo+1 > limit {
		if after == 0 {
			lo = hi - limit + 1
		} else {
			hi = lo + limit - 1
		}
	}
	msgs = make([]conv.Message, 0, hi-lo+1)
	for seq := lo; seq <= hi; seq++ {
		msgs = append(msgs, CloneMessage(*s.At(seq - 1)))
	}
	return msgs, lo > 1
}

// CloneMessage deep-copies a message so the caller's copy survives later
// back-patches.
func CloneMessage(m conv.Message) conv.Message {
	if m.Tool != nil {
		t := *m.Tool
		if t.Decision != nil {
			d := *t.Decision
			t.Decision = &d
		}
		m.Tool = &t
	}
	if m.Lifecycle != nil {
		l := *m.Lifecycle
		m.Lifecycle = &l
	}
	m.Dialog = m.Dialog.Clone()
	m.Attachments = slices.Clone(m.Attachments)
	return m
}

// Clone returns a deep copy of s, for tests that compare a fold's state
// at one point with another's.
func (s *Stream) Clone() Stream {
	c := *s
	c.chunks = make([][]conv.Message, len(s.chunks))
	for i, ch := range s.chunks {
		c.chunks[i] = make([]conv.Message, len(ch), cap(ch))
		for j, m := range ch {
			c.chunks[i][j] = CloneMessage(m)
		}
	}
	c.calls = maps.Clone(s.calls)
	c.orphans = maps.Clone(s.orphans)
	c.pending = slices.Clone(s.pending)
	c.running = slices.Clone(s.running)
	return c
}
