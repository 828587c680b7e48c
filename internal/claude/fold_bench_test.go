package claude

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"lab/internal/claude/transcriptgen"
	"lab/internal/foldkit/foldtest"
)

// Benchmarks on a generated transcript in the 2.1.328 line shapes (see
// transcriptgen and foldtest's benchmarks). LAB_FOLD_BENCH_MB sets its
// size (default 100).
//
//	go test ./internal/claude -run '^$' -bench 'Fold' -benchtime 5x

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
	return foldtest.Generated(b, opt, func(w io.Writer) error {
		_, err := transcriptgen.Write(w, opt)
		return err
	})
}

// BenchmarkFoldCold folds the whole transcript from memory, fed in 256 KB
// pieces as the file reader feeds it.
func BenchmarkFoldCold(b *testing.B) {
	foldHarness.Cold(b, benchTranscript(b, foldtest.BenchSize(b), false))
}

// BenchmarkFoldColdFile folds the transcript from a file with ReadFrom, as
// `lab fold` does: the mixed transcript, and one whose tool outputs reach
// 25 MB.
func BenchmarkFoldColdFile(b *testing.B) {
	foldHarness.ColdFile(b, func(huge bool) []byte { return benchTranscript(b, foldtest.BenchSize(b), huge) })
}

// BenchmarkFoldAppend measures one appended line on a fold that already
// holds a 1 MB or a 100 MB transcript, and what the live view then asks.
// The lines cycle through a prompt, prose, a tool call and its 4 KB
// result, so a quarter of them back-patch.
func BenchmarkFoldAppend(b *testing.B) {
	foldHarness.Append(b, func(size int64) []byte { return benchTranscript(b, size, false) }, func(b *testing.B) [][]byte {
		lines := make([][]byte, 0, 4096)
		for i := range 1024 {
			id := fmt.Sprintf("toolu_bench%06d", i)
			lines = append(lines,
				[]byte(fxUser(b, "run the tests again please", nil)),
				[]byte(fxAssistant(b, "tool_use", fxText("Running them now; this takes a moment."))),
				[]byte(fxAssistant(b, "tool_use", fxToolUse(id, "Bash", fxObj{"command": "go test ./..."}))),
				[]byte(fxResult(b, id, string(bytes.Repeat([]byte("ok  \tlab/internal/x\t0.01s\n"), 160)), false, nil)))
		}
		return lines
	})
}
