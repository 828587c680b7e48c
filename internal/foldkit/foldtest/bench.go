package foldtest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The fold benchmarks of both adapters, on a generated file in their
// CLI's line shapes. LAB_FOLD_BENCH_MB sets its size (default 100).

var generated sync.Map // generator options -> []byte

// Generated returns what write produces for opt, generated once per
// options value in the test binary (opt must be comparable).
func Generated(b *testing.B, opt any, write func(w io.Writer) error) []byte {
	b.Helper()
	if v, ok := generated.Load(opt); ok {
		return v.([]byte)
	}
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		b.Fatal(err)
	}
	generated.Store(opt, buf.Bytes())
	return buf.Bytes()
}

// BenchSize is the generated file's size: LAB_FOLD_BENCH_MB, default 100
// MB.
func BenchSize(b *testing.B) int64 {
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

// cpuTime is the CPU time the process has used so far, user and system,
// every thread's (the GC's too).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since start as cpu-ns/op:
// on a machine whose cores other work shares, wall time per operation
// grows with the load; CPU time much less.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

// Cold folds the whole data from memory, fed in 256 KB pieces as the file
// reader feeds it; a generated file folds without a skipped line.
func (h Harness[F]) Cold(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	defer reportCPU(b, cpuTime(b))
	for b.Loop() {
		f := h.New()
		for p := data; len(p) > 0; {
			n := min(256<<10, len(p))
			f.Write(p[:n])
			p = p[n:]
		}
		if f.SkippedLines() != 0 {
			b.Fatal("skipped lines in the generated file")
		}
	}
}

// ColdFile folds a file with ReadFrom, as `lab fold` does (the file is in
// the page cache after the first pass): the mixed file, and one of huge
// lines; gen makes either.
func (h Harness[F]) ColdFile(b *testing.B, gen func(hugeLines bool) []byte) {
	for _, huge := range []bool{false, true} {
		name := "mix"
		if huge {
			name = "huge-lines"
		}
		b.Run(name, func(b *testing.B) {
			data := gen(huge)
			path := filepath.Join(b.TempDir(), "big.jsonl")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			defer reportCPU(b, cpuTime(b))
			for b.Loop() {
				file, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				f := h.New()
				if _, err := f.ReadFrom(file); err != nil {
					b.Fatal(err)
				}
				file.Close()
			}
		})
	}
}

// Append measures one appended line on a fold that already holds a 1 MB
// or a BenchSize file (gen makes one of a size), as the live tailer would
// feed it, followed by what the live view then asks (state, back-patch
// mark, the newest window). The lines appended, cycled through, are made
// by lines once the fold holds the file (so they lie after it in memory,
// as a live tail's do).
func (h Harness[F]) Append(b *testing.B, gen func(size int64) []byte, makeLines func(b *testing.B) [][]byte) {
	for _, size := range []int64{1 << 20, BenchSize(b)} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			f := h.New()
			f.Write(gen(size))
			lines := makeLines(b)
			b.ResetTimer()
			defer reportCPU(b, cpuTime(b))
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
