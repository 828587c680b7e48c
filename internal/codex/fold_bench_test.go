package codex

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"lab/internal/codex/rolloutgen"
	"lab/internal/foldkit/foldtest"
)

// Benchmarks on a generated rollout in the 0.171.0 line shapes (see
// rolloutgen and foldtest's benchmarks). LAB_FOLD_BENCH_MB sets its size
// (default 100).
//
//	go test ./internal/codex -run '^$' -bench 'Fold' -benchtime 5x

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
	return foldtest.Generated(b, opt, func(w io.Writer) error {
		_, err := rolloutgen.Write(w, opt)
		return err
	})
}

// BenchmarkFoldCold folds the whole rollout from memory, fed in 256 KB
// pieces as the file reader feeds it.
func BenchmarkFoldCold(b *testing.B) {
	foldHarness.Cold(b, benchRollout(b, foldtest.BenchSize(b), false))
}

// BenchmarkFoldColdFile folds the rollout from a file with ReadFrom: the
// mixed rollout, and one whose command outputs reach 25 MB.
func BenchmarkFoldColdFile(b *testing.B) {
	foldHarness.ColdFile(b, func(huge bool) []byte { return benchRollout(b, foldtest.BenchSize(b), huge) })
}

// BenchmarkFoldAppend measures one appended line on a fold that already
// holds a 1 MB or a 100 MB rollout, and what the live view then asks. The
// lines cycle through a prompt, prose, a command call and its 4 KB
// output, so a quarter of them back-patch.
func BenchmarkFoldAppend(b *testing.B) {
	foldHarness.Append(b, func(size int64) []byte { return benchRollout(b, size, false) }, func(b *testing.B) [][]byte {
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
		return lines
	})
}
