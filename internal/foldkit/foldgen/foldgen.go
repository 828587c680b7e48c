// Package foldgen is what the generators of large synthetic CLI files
// (internal/claude/transcriptgen, internal/codex/rolloutgen) share: the
// buffered output that counts its bytes and keeps its first error, the
// turn loop, the clock, heavy-tailed output sizes, seeded text with the
// escapes JSON needs, records with a key first as the CLIs
// write them, and the generator commands' main. Each generator supplies
// its CLI's line shapes and mix; the output is deterministic for a seed.
package foldgen

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"
)

// Options is what every generator takes (a generator adds its own).
type Options struct {
	// Size is the least number of bytes to write; generation stops at the
	// first turn boundary past it.
	Size int64
	// Seed makes different but reproducible files.
	Seed uint64
	// MaxOutput bounds one tool output (see Gen.OutputSize).
	MaxOutput int
}

// Gen is what every generator carries: the output, the seeded random
// source and the clock its records are stamped with.
type Gen struct {
	*Out
	Rng   *rand.Rand
	Clock time.Time
}

// NewGen returns a generator's base writing to w, its random source
// seeded by seed (and the generator's own stream number), its clock at
// start.
func NewGen(w io.Writer, seed, stream uint64, start time.Time) Gen {
	return Gen{Out: NewOut(w), Rng: rand.New(rand.NewPCG(seed, stream)), Clock: start}
}

// Words returns about n bytes of text from vocab (see Words).
func (g Gen) Words(vocab []string, n int) string { return Words(g.Rng, vocab, n) }

// Turns calls turn with 0, 1, 2, … until the output holds at least size
// bytes or a write failed, then flushes it: a generated file ends at the
// first turn boundary past its size. It returns the bytes written and the
// first error.
func (g Gen) Turns(size int64, turn func(n int)) (int64, error) {
	for n := 0; g.N < size && g.Err == nil; n++ {
		turn(n)
	}
	return g.Done()
}

// Tick moves the clock on by minMs plus up to spreadMs milliseconds and
// returns it as the CLIs stamp their records.
func (g *Gen) Tick(minMs, spreadMs int) string {
	g.Clock = g.Clock.Add(time.Duration(minMs+g.Rng.IntN(spreadMs)) * time.Millisecond)
	return g.Clock.Format("2006-01-02T15:04:05.000Z")
}

// OutputSize draws the size of a tool output, heavy-tailed as real ones
// are: mostly 200 B to 4 KB, one in six anything below max (64 KB when max
// is not positive).
func (g Gen) OutputSize(max int) int {
	if max <= 0 {
		max = 64 << 10
	}
	size := 200 + g.Rng.IntN(4000)
	if g.Rng.IntN(6) == 0 {
		size = g.Rng.IntN(max)
	}
	return size
}

// Out is a generated file being written: buffered, counting its bytes,
// keeping the first error (writes after it are dropped).
type Out struct {
	w   *bufio.Writer
	N   int64 // bytes written so far
	Err error
}

// NewOut returns an Out writing to w through a 1 MB buffer.
func NewOut(w io.Writer) *Out { return &Out{w: bufio.NewWriterSize(w, 1<<20)} }

// WriteString writes s.
func (o *Out) WriteString(s string) {
	if o.Err != nil {
		return
	}
	n, err := o.w.WriteString(s)
	o.N += int64(n)
	o.Err = err
}

// JSONLine writes v as one JSON line.
func (o *Out) JSONLine(v any) {
	if o.Err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		o.Err = err
		return
	}
	o.WriteString(string(append(b, '\n')))
}

// Done flushes the output and returns the bytes written and the first
// error.
func (o *Out) Done() (int64, error) {
	if o.Err == nil {
		o.Err = o.w.Flush()
	}
	return o.N, o.Err
}

// Words returns about n bytes of words drawn from vocab, broken into lines
// of 60 to 100 columns: with a vocabulary that holds quotes, backslashes,
// tabs and non-ASCII, text with every escape JSON needs.
func Words(rng *rand.Rand, vocab []string, n int) string {
	var b strings.Builder
	b.Grow(n + 16)
	col := 0
	for b.Len() < n {
		w := vocab[rng.IntN(len(vocab))]
		b.WriteString(w)
		col += len(w)
		if col > 60+rng.IntN(40) {
			b.WriteByte('\n')
			col = 0
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// Quote is s as a JSON string.
func Quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// KeyFirst marshals rest as a JSON object with key: value as its first
// member, as the CLIs write their records (encoding/json sorts a map's
// keys).
func KeyFirst(key, value string, rest map[string]any) ([]byte, error) {
	b, err := json.Marshal(rest)
	if err != nil {
		return nil, err
	}
	head := `{` + Quote(key) + `:` + Quote(value)
	if len(b) > 2 {
		return append([]byte(head+","), b[1:]...), nil
	}
	return []byte(head + "}"), nil
}

// Command is a generator command: its name (for errors) and what its
// flags set.
type Command struct {
	Name string
	Opt  *Options // -mb (Size in MiB), -seed, -max-output
	What string   // what MaxOutput bounds, for its flag's help
	// Flags adds the generator's own flags.
	Flags func(fs *flag.FlagSet)
	// Write writes the file once the flags are read.
	Write func(w io.Writer) (int64, error)
}

// Main runs c with the process's arguments: it writes the file to -o (or
// stdout) and says how many bytes it wrote.
func (c Command) Main() {
	fs := flag.CommandLine
	mb := fs.Int64("mb", c.Opt.Size>>20, "least size in MiB")
	out := fs.String("o", "", "output file (default stdout)")
	fs.Uint64Var(&c.Opt.Seed, "seed", c.Opt.Seed, "seed")
	fs.IntVar(&c.Opt.MaxOutput, "max-output", c.Opt.MaxOutput, "largest "+c.What)
	if c.Flags != nil {
		c.Flags(fs)
	}
	flag.Parse()
	c.Opt.Size = *mb << 20
	w := os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, c.Name+":", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	n, err := c.Write(w)
	if err != nil {
		fmt.Fprintln(os.Stderr, c.Name+":", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "wrote %d bytes\n", n)
}
