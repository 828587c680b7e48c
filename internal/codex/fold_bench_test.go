package codex

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"lab/internal/codex/rolloutgen"
)

// Benchmarks on a generated rollout in the 0.171.0 line shapes (see
// rolloutgen). LAB_FOLD_BENCH_MB sets its size (default 100).
//
//	go test ./internal/codex -run '^$' -bench 'Fold' -benchtime 5x

var benchRollouts sync.Map // options -> []byte

// benchRollout generates (once per options) a rollout of size bytes;
// hugeLines makes command outputs of up to 25 MB, so lines of that size
// that the fold must hold and parse (and as many it must skip).
func benchRollout(b *testing.B, size int64, hugeLines bool) []byte {
	b.Helper()
	opt := rolloutgen.Default()
	opt.Size = size
	if size < 50<<20 {
		opt.MaxOutput = 256 << 10
	}
	if hugeLines {
		opt.MaxOutput, opt.Seed = 25<<20, 3
	}
	if v, ok := benchRollouts.Load(opt); ok {
		return v.([]byte)
	}
	var buf bytes.Buffer
	if _, err := rolloutgen.Write(&buf, opt); err != nil {
		b.Fatal(err)
	}
	benchRollouts.Store(opt, buf.Bytes())
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

// BenchmarkFoldCold folds the whole rollout from memory, fed in 256 KB
// pieces as the file reader feeds it.
func BenchmarkFoldCold(b *testing.B) {
	data := benchRollout(b, benchSize(b), false)
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
			b.Fatal("skipped lines in the generated rollout")
		}
	}
}

// BenchmarkFoldColdFile folds the rollout from a file with ReadFrom (the
// file is in the page cache after the first pass): the mixed rollout, and
// one whose command outputs reach 25 MB.
func BenchmarkFoldColdFile(b *testing.B) {
	for _, huge := range []bool{false, true} {
		name := "mix"
		if huge {
			name = "huge-lines"
		}
		b.Run(name, func(b *testing.B) {
			data := benchRollout(b, benchSize(b), huge)
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
// holds a 1 MB or a 100 MB rollout, as the live tailer would feed it,
// followed by what the live view then asks (state, back-patch mark, the
// newest window). The lines cycle through a prompt, prose, a command call
// and its 4 KB output, so a quarter of them back-patch.
func BenchmarkFoldAppend(b *testing.B) {
	for _, size := range []int64{1 << 20, benchSize(b)} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			base := benchRollout(b, size, false)
			f := NewFold()
			f.Write(base)
			lines := make([][]byte, 0, 4096)
			out := "Chunk ID: 1\nWall time: 1.0 seconds\nProcess exited with code 0\nOriginal token count: 900\nOutput:\n" +
				string(bytes.Repeat([]byte("ok  \tlab/internal/x\t0.01s\n"), 160))
			for i := range 1024 {
				id := fmt.Sprintf("call_bench%06d", i)
				lines = append(lines,
					[]byte(fxUser(b, "run the tests again please", nil)),
					[]byte(fxAssistant(b, "msg_bench", "Running them now; this takes a moment.")),
					[]byte(fxCall(b, id, ToolExecCommand, fxObj{"cmd": "go test ./..."})),
					[]byte(fxOut(b, id, out)))
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
