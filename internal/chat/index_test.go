package chat

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"lab/internal/claude"
	"lab/internal/claude/transcriptgen"
	"lab/internal/foldkit/foldgen"
)

func TestLibrarySearchesConversationText(t *testing.T) {
	root := t.TempDir()
	base := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	writeSession(t, root, "-srv-api", "db", base,
		lineUser("Set up storage"),
		lineAssistantText("I suggest SQLite with WAL for the session store.", "end_turn"),
		lineToolUse("toolu_1", "Bash", map[string]any{"command": "go test ./internal/zebra"}),
		lineToolResult("toolu_1", "ok quokka", nil))
	writeSession(t, root, "-srv-web", "css", base.Add(time.Minute),
		lineUser("Fix the login page"), lineAssistantText("The stylesheet now centres the form.", "end_turn"))
	lib := NewLibrary(testShelves(root), nil)
	ctx := context.Background()
	ids := func(q string) []string {
		t.Helper()
		l, err := lib.List(ctx, SessionFilter{Q: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range l.Sessions {
			out = append(out, s.ID)
		}
		return out
	}
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"sqlite", []string{"db"}},      // the agent's prose, case-insensitive
		{"SQLi", []string{"db"}},        // a word prefix
		{"wal session", []string{"db"}}, // every word, anywhere in the conversation
		{"wal stylesheet", nil},         // words from two sessions: neither has both
		{"zebra", []string{"db"}},       // a tool call's command
		{"quokka", nil},                 // tool output is not indexed
		{"centres", []string{"css"}},    // the other session
		{"/w", []string{"css", "db"}},   // the old substring match on the folder still works
		{"/zebra", nil},                 // a slash makes it a path: no conversation words
		{"login page", []string{"css"}}, // and on the title
		{"nothing-like-this", nil},
	} {
		if got := ids(tc.q); !slices.Equal(got, tc.want) {
			t.Errorf("search %q: got %v; want %v", tc.q, got, tc.want)
		}
	}
	l, _ := lib.List(ctx, SessionFilter{Limit: 10})
	db := l.Sessions[1]
	if db.ID != "db" || db.Messages != 3 || !db.LastActivity.Equal(time.Date(2026, 11, 30, 10, 0, 2, 0, time.UTC)) {
		t.Fatalf("got %+v; want 3 messages, last at the tool call's time", db)
	}
	if s, err := lib.Session(ctx, "css"); err != nil || s.Title != "Fix the login page" || s.Messages != 2 {
		t.Fatalf("Session(css) = %+v, %v", s, err)
	}
}

// TestIndexIsIncremental: an update reads only what a transcript gained,
// a half-written line is read again once complete, a rewritten file is
// indexed from scratch, and a deleted one drops out.
func TestIndexIsIncremental(t *testing.T) {
	root := t.TempDir()
	h := claude.NewHistory(root)
	x := NewIndex()
	update := func() {
		t.Helper()
		files, err := indexFiles(h)
		if err != nil {
			t.Fatal(err)
		}
		x.Update(files)
	}
	var lines []string
	for i := range 200 {
		lines = append(lines, lineUser(fmt.Sprintf("prompt number %d", i)), lineAssistantText("filler words", "end_turn"))
	}
	p := writeSession(t, root, "-w", "grow", time.Now(), lines...)
	update()
	size, _ := os.Stat(p)
	if x.read != size.Size() {
		t.Fatalf("first update read %d bytes; want the whole file, %d", x.read, size.Size())
	}
	if st, _ := x.Stats(p); st.Messages != 400 {
		t.Fatalf("got %d messages; want 400", st.Messages)
	}
	read := x.read
	update() // nothing changed: nothing read
	if x.read != read {
		t.Fatalf("an unchanged file was read again (%d bytes)", x.read-read)
	}
	// Append one full line and half of another.
	tail := lineAssistantText("a platypus appears", "end_turn")
	half := lineUser("an echidna too")
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(tail + "\n" + half[:20])
	f.Close()
	update()
	if got, want := x.read-read, int64(len(tail)+1+20); got != want {
		t.Fatalf("append read %d bytes; want only the %d new ones", got, want)
	}
	if x.Search("platypus")[p] != true || x.Search("echidna") != nil {
		t.Fatal("want the complete line indexed and the partial one not yet")
	}
	f, _ = os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(half[20:] + "\n")
	f.Close()
	update()
	if !x.Search("echidna")[p] {
		t.Fatal("the completed line was not indexed")
	}
	if st, _ := x.Stats(p); st.Messages != 402 {
		t.Fatalf("got %d messages after the appends; want 402", st.Messages)
	}
	// Rewritten shorter: indexed again from the start; old words are gone.
	os.WriteFile(p, []byte(lineUser("a wombat only")+"\n"), 0o644)
	update()
	if x.Search("platypus") != nil || !x.Search("wombat")[p] {
		t.Fatal("a rewritten file kept its old words or lacks its new ones")
	}
	if st, _ := x.Stats(p); st.Messages != 1 {
		t.Fatalf("got %d messages after the rewrite; want 1", st.Messages)
	}
	os.Remove(p)
	update()
	if x.Search("wombat") != nil {
		t.Fatal("a deleted file still matches")
	}
	if _, ok := x.Stats(p); ok {
		t.Fatal("a deleted file still has stats")
	}
}

// TestIndexCountsLikeTheFold: the message count from tails folded apart
// equals the whole fold's, on the captured real transcripts split at
// every line.
func TestIndexCountsLikeTheFold(t *testing.T) {
	paths, _ := filepath.Glob("../claude/testdata/captured/*.jsonl")
	for _, src := range paths {
		if filepath.Ext(src[:len(src)-len(".jsonl")]) == ".hooks" {
			continue
		}
		t.Run(filepath.Base(src), func(t *testing.T) {
			body, _ := os.ReadFile(src)
			whole := claude.NewFold()
			whole.Write(body)
			root := t.TempDir()
			p := writeSession(t, root, "-w", "s", time.Now())
			h := claude.NewHistory(root)
			x := NewIndex()
			for _, line := range bytes.SplitAfter(body, []byte("\n")) {
				f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
				f.Write(line)
				f.Close()
				files, _ := indexFiles(h)
				x.Update(files)
			}
			if st, _ := x.Stats(p); st.Messages != whole.Len() {
				t.Fatalf("index counted %d messages line by line; the fold has %d", st.Messages, whole.Len())
			}
		})
	}
}

// BenchmarkIndexBuild indexes a history of generated transcripts from
// scratch; BenchmarkIndexSearch looks words up in it.
func BenchmarkIndexBuild(b *testing.B) {
	root, files := benchHistory(b)
	b.SetBytes(historyBytes(files))
	b.ResetTimer()
	for range b.N {
		x := NewIndex()
		x.Update(files)
	}
	_ = root
}

func BenchmarkIndexSearch(b *testing.B) {
	_, files := benchHistory(b)
	x := NewIndex()
	x.Update(files)
	b.ResetTimer()
	for i := range b.N {
		x.Search([]string{"the", "tool result", "zz", "sess"}[i%4])
	}
	words, postings := x.IndexSize()
	b.ReportMetric(float64(words), "words")
	b.ReportMetric(float64(postings), "postings")
}

func BenchmarkIndexUpdateUnchanged(b *testing.B) {
	_, files := benchHistory(b)
	x := NewIndex()
	x.Update(files)
	b.ResetTimer()
	for range b.N {
		x.Update(files)
	}
}

// benchHistory writes 200 transcripts of about 512 KB (100 MB) once per
// process.
func benchHistory(b *testing.B) (string, []IndexFile) {
	b.Helper()
	if benchHist.root == "" {
		root, err := os.MkdirTemp("", "lab-index-bench-")
		if err != nil {
			b.Fatal(err)
		}
		for i := range 200 {
			dir := filepath.Join(root, fmt.Sprintf("-p%d", i%20))
			os.MkdirAll(dir, 0o755)
			f, err := os.Create(filepath.Join(dir, fmt.Sprintf("s%03d.jsonl", i)))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := transcriptgen.Write(f, transcriptgen.Options{Options: foldgen.Options{Size: 512 << 10, Seed: uint64(i + 1), MaxOutput: 64 << 10}}); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
		files, err := indexFiles(claude.NewHistory(root))
		if err != nil {
			b.Fatal(err)
		}
		benchHist.root, benchHist.files = root, files
	}
	return benchHist.root, benchHist.files
}

var benchHist struct {
	root  string
	files []IndexFile
}

// indexFiles lists a Claude Code history as the index takes it.
func indexFiles(h *claude.History) ([]IndexFile, error) {
	list, err := h.List()
	if err != nil {
		return nil, err
	}
	files := make([]IndexFile, len(list))
	for i, s := range list {
		files[i] = IndexFile{Path: s.TranscriptPath, Size: s.Size, ModTime: s.ModTime, NewFold: claudeFold}
	}
	return files, nil
}

func historyBytes(files []IndexFile) int64 {
	var n int64
	for _, f := range files {
		n += f.Size
	}
	return n
}

// BenchmarkIndexSearchLargeVocab searches an index whose vocabulary is
// that of a big real history: 2,000 conversations of 3,000 distinct words
// each, drawn Zipf-like from 300,000 (generated transcripts repeat a few
// dozen words, so they say nothing about lookup in a large vocabulary).
func BenchmarkIndexSearchLargeVocab(b *testing.B) {
	x := NewIndex()
	rng := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(rng, 1.1, 1, 300000-1)
	word := func(n uint64) string { return fmt.Sprintf("w%x%c", n*2654435761%1000003, 'a'+rune(n%26)) }
	for doc := range 2000 {
		d := x.newDoc(fmt.Sprintf("/h/s%d.jsonl", doc))
		for range 3000 {
			x.post(word(zipf.Uint64()), d.num)
		}
	}
	x.sortVocab()
	queries := []string{word(3), word(40000) + " " + word(5), "w1", word(299000)}
	b.ResetTimer()
	for i := range b.N {
		x.Search(queries[i%len(queries)])
	}
	words, postings := x.IndexSize()
	b.ReportMetric(float64(words), "words")
	b.ReportMetric(float64(postings), "postings")
}

// BenchmarkIndexSearchAfterAppend is a search right after a live run
// added a few new words to that large vocabulary: the new words are
// merged in, not the whole vocabulary sorted again.
func BenchmarkIndexSearchAfterAppend(b *testing.B) {
	x := NewIndex()
	rng := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(rng, 1.1, 1, 300000-1)
	for doc := range 2000 {
		d := x.newDoc(fmt.Sprintf("/h/s%d.jsonl", doc))
		for range 3000 {
			x.post(fmt.Sprintf("w%d", zipf.Uint64()), d.num)
		}
	}
	x.sortVocab()
	live := x.newDoc("/h/live.jsonl")
	b.ResetTimer()
	for i := range b.N {
		for k := range 20 {
			x.post(fmt.Sprintf("fresh%d_%d", i, k), live.num)
		}
		x.Search("fresh")
	}
}
