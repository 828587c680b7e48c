// Command gentranscript writes a synthetic Claude Code transcript for
// benchmarking the fold:
//
//	go run ./internal/claude/transcriptgen/cmd/gentranscript -mb 100 -o /tmp/big.jsonl
package main

import (
	"flag"
	"fmt"
	"os"

	"lab/internal/claude/transcriptgen"
)

func main() {
	opt := transcriptgen.Default()
	mb := flag.Int64("mb", opt.Size>>20, "least size in MiB")
	out := flag.String("o", "", "output file (default stdout)")
	flag.Uint64Var(&opt.Seed, "seed", opt.Seed, "seed")
	flag.IntVar(&opt.HugeBlobs, "huge", opt.HugeBlobs, "number of huge request-blob lines")
	flag.IntVar(&opt.HugeBlobBytes, "huge-bytes", opt.HugeBlobBytes, "size of each huge request-blob line")
	flag.IntVar(&opt.MaxOutput, "max-output", opt.MaxOutput, "largest tool output")
	flag.Parse()
	opt.Size = *mb << 20
	w := os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gentranscript:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	n, err := transcriptgen.Write(w, opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentranscript:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "wrote %d bytes\n", n)
}
