// Command gentranscript writes a synthetic Claude Code transcript for
// benchmarking the fold:
//
//	go run ./internal/claude/transcriptgen/cmd/gentranscript -mb 100 -o /tmp/big.jsonl
package main

import (
	"flag"
	"io"

	"lab/internal/claude/transcriptgen"
	"lab/internal/foldkit/foldgen"
)

func main() {
	opt := transcriptgen.Default()
	foldgen.Command{
		Name: "gentranscript", Opt: &opt.Options, What: "tool output",
		Flags: func(fs *flag.FlagSet) {
			fs.IntVar(&opt.HugeBlobs, "huge", opt.HugeBlobs, "number of huge request-blob lines")
			fs.IntVar(&opt.HugeBlobBytes, "huge-bytes", opt.HugeBlobBytes, "size of each huge request-blob line")
		},
		Write: func(w io.Writer) (int64, error) { return transcriptgen.Write(w, opt) },
	}.Main()
}
