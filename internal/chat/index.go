package chat

import (
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"lab/internal/agent"
	"lab/internal/conv"
)

// Index is the history's full-text index: the words of every session's
// conversation, and its message count and last activity. It is built from
// the folds, incrementally: each update folds only the bytes a transcript
// gained since the last one (complete lines only), so keeping it current
// costs a stat per unchanged file. A search looks words up in a sorted
// vocabulary; it never reads a transcript.
//
// What is indexed is what the chat shows as conversation: prompts, the
// agent's prose, tool call summaries (commands, paths), questions with
// their options, plans. Tool outputs and thinking are not.
type Index struct {
	mu       sync.Mutex
	docs     map[string]*indexDoc // by transcript path
	live     map[uint32]*indexDoc // by doc number; a rewritten file gets a new number
	nextNum  uint32
	vocab    map[string]uint32 // word -> word id
	words    []string          // word id -> word
	postings [][]uint32        // word id -> doc numbers, ascending
	sorted   []uint32          // word ids in word order, but for fresh
	fresh    []uint32          // word ids added since sorted was last merged
	read     int64             // transcript bytes read, ever (tests watch it)
	buf      []byte
}

type indexDoc struct {
	num      uint32
	path     string
	offset   int64 // bytes indexed: up to the end of the last complete line
	size     int64 // file size at the last update
	mtime    time.Time
	messages int
	last     time.Time
}

// IndexStats is what the index knows of one transcript.
type IndexStats struct {
	Messages     int
	LastActivity time.Time
}

// Bounds of an indexed word, in runes: shorter ones match too much to be
// worth a posting, longer ones are hashes and blobs.
const (
	indexWordMin = 2
	indexWordMax = 40
)

// NewIndex returns an empty index.
func NewIndex() *Index {
	return &Index{docs: map[string]*indexDoc{}, live: map[uint32]*indexDoc{}, vocab: map[string]uint32{}}
}

// IndexFile is one transcript to index: its path, size and mtime as
// listed, and how its provider folds it.
type IndexFile struct {
	Path    string
	Size    int64
	ModTime time.Time
	NewFold func() agent.Fold
}

// Update brings the index in line with the given transcripts: new and
// grown files are folded from where the last update stopped, a file that
// shrank is indexed again from its start, and paths no longer listed are
// dropped. A file that cannot be read keeps what was indexed of it.
func (x *Index) Update(files []IndexFile) {
	x.mu.Lock()
	defer x.mu.Unlock()
	seen := make(map[string]bool, len(files))
	for _, f := range files {
		if f.Path == "" || f.NewFold == nil {
			continue
		}
		seen[f.Path] = true
		d := x.docs[f.Path]
		if d == nil {
			d = x.newDoc(f.Path)
		}
		if f.Size == d.size && f.ModTime.Equal(d.mtime) {
			continue
		}
		if f.Size < d.offset {
			// Rewritten or truncated: what was indexed says nothing about
			// the new bytes. The old number's postings go stale.
			delete(x.live, d.num)
			d = x.newDoc(f.Path)
		}
		x.indexTail(d, f.NewFold())
		d.size, d.mtime = f.Size, f.ModTime
	}
	for p, d := range x.docs {
		if !seen[p] {
			delete(x.docs, p)
			delete(x.live, d.num)
		}
	}
}

func (x *Index) newDoc(path string) *indexDoc {
	x.nextNum++
	d := &indexDoc{num: x.nextNum, path: path}
	x.docs[path] = d
	x.live[d.num] = d
	return d
}

// indexChunk bounds how much of a transcript is read at once.
const indexChunk = 1 << 20

// indexTail folds the complete lines of d's file past d.offset into a
// fresh fold and indexes the messages they make. Lines stand alone in the
// chat's terms (a tool result only patches its call), so folding a tail
// apart from its head yields the same new messages.
func (x *Index) indexTail(d *indexDoc, fold agent.Fold) {
	f, err := os.Open(d.path)
	if err != nil {
		return // gone or unreadable: keep what was indexed
	}
	defer f.Close()
	if x.buf == nil {
		x.buf = make([]byte, indexChunk)
	}
	pos, lastNL := d.offset, int64(-1)
	for {
		n, err := f.ReadAt(x.buf, pos)
		if n > 0 {
			chunk := x.buf[:n]
			if i := lastIndexByte(chunk, '\n'); i >= 0 {
				// Only whole lines count; a held partial line is read
				// again next time.
				fold.Write(chunk[:i+1])
				lastNL = pos + int64(i)
				if i+1 < n {
					fold.Write(chunk[i+1:])
				}
			} else {
				fold.Write(chunk)
			}
			pos += int64(n)
			x.read += int64(n)
		}
		if err == io.EOF || n == 0 {
			break
		}
		if err != nil {
			return
		}
	}
	if lastNL < 0 {
		return
	}
	d.offset = lastNL + 1
	msgs, _ := fold.Messages(0, 0, 0)
	d.messages += len(msgs)
	for i := range msgs {
		m := &msgs[i]
		if m.Time.After(d.last) {
			d.last = m.Time
		}
		messageWords(m, func(w string) { x.post(w, d.num) })
	}
}

func lastIndexByte(b []byte, c byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == c {
			return i
		}
	}
	return -1
}

// post records that doc num contains word w.
func (x *Index) post(w string, num uint32) {
	id, ok := x.vocab[w]
	if !ok {
		id = uint32(len(x.words))
		x.vocab[w] = id
		x.words = append(x.words, w)
		x.postings = append(x.postings, nil)
		x.fresh = append(x.fresh, id)
	}
	p := x.postings[id]
	if n := len(p); n > 0 && p[n-1] == num {
		return // the common case: the same doc again
	}
	i, found := slices.BinarySearch(p, num)
	if !found {
		x.postings[id] = slices.Insert(p, i, num)
	}
}

// Stats returns what the index holds of the transcript at path.
func (x *Index) Stats(path string) (IndexStats, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	d, ok := x.docs[path]
	if !ok {
		return IndexStats{}, false
	}
	return IndexStats{Messages: d.messages, LastActivity: d.last}, true
}

// Search returns the paths of the transcripts that contain every word of
// q, each word matching as a prefix of a conversation word ("sqli" finds
// "SQLite"), case-insensitively. A query without words matches nothing.
func (x *Index) Search(q string) map[string]bool {
	var terms []string
	queryWords(q, func(w string) { terms = append(terms, w) })
	if len(terms) == 0 {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.sortVocab()
	var acc map[uint32]bool
	for _, t := range terms {
		hits := map[uint32]bool{}
		i := sort.Search(len(x.sorted), func(i int) bool { return x.words[x.sorted[i]] >= t })
		for ; i < len(x.sorted) && strings.HasPrefix(x.words[x.sorted[i]], t); i++ {
			for _, num := range x.postings[x.sorted[i]] {
				if acc == nil || acc[num] {
					hits[num] = true
				}
			}
		}
		acc = hits
		if len(acc) == 0 {
			return nil
		}
	}
	var out map[string]bool
	for num := range acc {
		if d, ok := x.live[num]; ok {
			if out == nil {
				out = map[string]bool{}
			}
			out[d.path] = true
		}
	}
	return out
}

// sortVocab merges the words that arrived since the last search into
// the sorted vocabulary: sorting only the new ones keeps a search after a
// live run's append cheap on a large vocabulary.
func (x *Index) sortVocab() {
	if len(x.fresh) == 0 {
		return
	}
	byWord := func(a, b uint32) int { return strings.Compare(x.words[a], x.words[b]) }
	slices.SortFunc(x.fresh, byWord)
	merged := make([]uint32, 0, len(x.sorted)+len(x.fresh))
	i, j := 0, 0
	for i < len(x.sorted) && j < len(x.fresh) {
		if byWord(x.sorted[i], x.fresh[j]) <= 0 {
			merged = append(merged, x.sorted[i])
			i++
		} else {
			merged = append(merged, x.fresh[j])
			j++
		}
	}
	merged = append(append(merged, x.sorted[i:]...), x.fresh[j:]...)
	x.sorted, x.fresh = merged, x.fresh[:0]
}

// IndexSize reports the vocabulary size and the postings held, for
// benchmarks.
func (x *Index) IndexSize() (words, postings int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, p := range x.postings {
		postings += len(p)
	}
	return len(x.words), postings
}

// messageWords calls add for each indexed word of m.
func messageWords(m *conv.Message, add func(string)) {
	switch m.Kind {
	case conv.KindText:
		textWords(m.Text, add)
	case conv.KindTool:
		if m.Tool != nil {
			textWords(m.Tool.Name, add)
			textWords(m.Tool.Input, add)
		}
	case conv.KindDialog:
		if d := m.Dialog; d != nil {
			textWords(d.Plan, add)
			for _, q := range d.Questions {
				textWords(q.Question, add)
				for _, o := range q.Options {
					textWords(o.Label, add)
				}
			}
			if d.Outcome != nil {
				textWords(d.Outcome.Feedback, add)
				for _, r := range d.Outcome.Results {
					textWords(r.OtherText, add)
				}
			}
		}
	}
}

// textWords splits s into lower-case words of letters and digits and
// calls add for those of indexable length.
func textWords(s string, add func(string)) {
	start := -1
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			emitWord(s[start:i], add)
			start = -1
		}
	}
	if start >= 0 {
		emitWord(s[start:], add)
	}
}

func emitWord(w string, add func(string)) {
	if n := utf8.RuneCountInString(w); n < indexWordMin || n > indexWordMax {
		return
	}
	add(strings.ToLower(w))
}

// queryWords splits a query like textWords, keeping one-letter words too:
// a prefix of one letter is a fair, if broad, question.
func queryWords(q string, add func(string)) {
	for _, w := range strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if utf8.RuneCountInString(w) <= indexWordMax {
			add(strings.ToLower(w))
		}
	}
}
