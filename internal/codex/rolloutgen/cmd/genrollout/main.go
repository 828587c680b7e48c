// Command genrollout writes a synthetic Codex rollout for benchmarking the
// fold:
//
//	go run ./internal/codex/rolloutgen/cmd/genrollout -mb 100 -o /tmp/big-rollout.jsonl
package main

import (
	"io"

	"lab/internal/codex/rolloutgen"
	"lab/internal/foldkit/foldgen"
)

func main() {
	opt := rolloutgen.Default()
	foldgen.Command{
		Name: "genrollout", Opt: &opt, What: "command output",
		Write: func(w io.Writer) (int64, error) { return rolloutgen.Write(w, opt) },
	}.Main()
}
