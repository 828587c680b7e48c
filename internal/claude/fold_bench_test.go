package claude

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"lab/internal/claude/transcriptgen"
)

// Benchmarks on a generated transcript in the 2.1.328 line shapes (see
// transcriptgen). LAB_FOLD_BENCH_MB sets its size (default 100).
//
//	go test ./internal/claude -run '^$' -bench 'Fold' -benchtime 5x

var benchTranscripts sync.Map // options -> []byte

// benchTranscript generates (once per options) a transcript of size bytes;
// hugeLines makes tool outputs of up to 25 MB, so conversation lines of
// 50 MB that the fold must hold and parse.
func benchTranscript(b *testing.B, size int64, hugeLines bool) []byte {
	b.Helper()
	opt := transcriptgen.Default()
	opt.Size = size
	if size < 50<<20 {
		opt.HugeBlobs, opt.MaxOutput = 0, 256<<10
	}
	if hugeLines {
		opt.MaxOutput, opt.Seed = 25<<20, 3
	}
	if v, ok := benchTranscripts.Load(opt); ok {
		return v.([]byte)
	}
	var buf bytes.Buffer
	if _, err := transcriptgen.Write(&buf, opt); err != nil {
		b.Fatal(err)
	}
	benchTranscripts.Store(opt, buf.Bytes())
	return buf.Bytes()
}

func benchSize(b *testing.B) int64 {
	mb := int64(100)
	if s := os.Getenv("LAB_FOLD_BENCH_MB"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v <= 0 {
			b.Fatalf("LAB_FOLD_BENCH_MB=%q: want a positive number", s)
		}
		mb = v
	}
	return mb << 20
}

// BenchmarkFoldCold folds the whole transcript from memory, fed in 256 KB
// pieces as the file reader feeds it.
func BenchmarkFoldCold(b *testing.B) {
	data := benchTranscript(b, benchSize(b), false)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		f := NewFold()
		for p := data; len(p) > 0; {
			n := min(256<<10, len(p))
			f.Write(p[:n])
			p = p[n:]
		}
		if f.SkippedLines() != 0 {
			b.Fatal("skipped lines in the generated transcript")
		}
	}
}

// BenchmarkFoldColdFile folds the transcript from a file with ReadFrom, as
// `lab fold` does (the file is in the page cache after the first pass):
// the mixed transcript, and one whose tool outputs reach 25 MB.
func BenchmarkFoldColdFile(b *testing.B) {
	for _, huge := range []bool{false, true} {
		name := "mix"
		if huge {
			name = "huge-lines"
		}
		b.Run(name, func(b *testing.B) {
			data := benchTranscript(b, benchSize(b), huge)
			path := filepath.Join(b.TempDir(), "big.jsonl")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			for b.Loop() {
				file, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				f := NewFold()
				if _, err := f.ReadFrom(file); err != nil {
					b.Fatal(err)
				}
				file.Close()
			}
		})
	}
}

// BenchmarkFoldAppend measures one appended line on a fold that already
// holds a 1 MB or a 100 MB transcript, as the live tailer would feed it,
// followed by what the live view then asks (state, back-patch mark, the
// newest window). The lines cycle through a prompt, prose, a tool call and
// its 4 KB result, so a quarter of them back-patch.
func BenchmarkFoldAppend(b *testing.B) {
	for _, size := range []int64{1 << 20, benchSize(b)} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			base := benchTranscript(b, size, false)
			f := NewFold()
			f.Write(base)
			lines := make([][]byte, 0, 4096)
			for i := range 1024 {
				id := fmt.Sprintf("toolu_bench%06d", i)
				lines = append(lines,
					[]byte(fxUser(b, "run the tests again please", nil)),
					[]byte(fxAssistant(b, "tool_use", fxText("Running them now; this takes a moment."))),
					[]byte(fxAssistant(b, "tool_use", fxToolUse(id, "Bash", fxObj{"command": "go test ./..."}))),
					[]byte(fxResult(b, id, string(bytes.Repeat([]byte("ok  \tlab/internal/x\t0.01s\n"), 160)), false, nil)))
			}
			b.ResetTimer()
			i := 0
			for b.Loop() {
				f.Write(lines[i%len(lines)])
				i++
				_ = f.State()
				_ = f.TakeBackpatch()
				_, _ = f.Messages(0, 0, 50)
			}
		})
	}
}
