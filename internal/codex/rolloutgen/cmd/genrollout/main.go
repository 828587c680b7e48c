// Command genrollout writes a synthetic Codex rollout for benchmarking the
// fold:
//
//	go run ./internal/codex/rolloutgen/cmd/genrollout -mb 100 -o /tmp/big-rollout.jsonl
package main

import (
	"flag"
	"fmt"
	"os"

	"lab/internal/codex/rolloutgen"
)

func main() {
	opt := rolloutgen.Default()
	mb := flag.Int64("mb", opt.Size>>20, "least size in MiB")
	out := flag.String("o", "", "output file (default stdout)")
	flag.Uint64Var(&opt.Seed, "seed", opt.Seed, "seed")
	flag.IntVar(&opt.MaxOutput, "max-output", opt.MaxOutput, "largest command output")
	flag.Parse()
	opt.Size = *mb << 20
	w := os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "genrollout:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	n, err := rolloutgen.Write(w, opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genrollout:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "wrote %d bytes\n", n)
}
