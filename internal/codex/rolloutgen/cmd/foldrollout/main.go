// Command foldrollout folds a Codex rollout the way `lab fold` folds a
// Claude Code transcript, for measuring the fold in a fresh process (peak
// RSS with /usr/bin/time) until lab's own fold command learns providers:
//
//	go build -o /tmp/foldrollout ./internal/codex/rolloutgen/cmd/foldrollout
//	/usr/bin/time -f 'maxrss=%MkB' /tmp/foldrollout --stats /tmp/big-rollout.jsonl
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"time"

	"lab/internal/codex"
	"lab/internal/conv"
)

func main() {
	stats := flag.Bool("stats", false, "fold without printing messages; print sizes and the fold time")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: foldrollout [--stats] FILE")
		os.Exit(2)
	}
	file, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "foldrollout:", err)
		os.Exit(1)
	}
	defer file.Close()
	start := time.Now()
	f := codex.NewFold()
	if _, err := f.ReadFrom(file); err != nil {
		fmt.Fprintln(os.Stderr, "foldrollout:", err)
		os.Exit(1)
	}
	elapsed := time.Since(start)
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if *stats {
		enc.Encode(map[string]any{"bytes": f.Bytes(), "lines": f.Lines(), "messages": f.Len(), "skipped_lines": f.SkippedLines(),
			"fold_ms": math.Round(float64(elapsed.Microseconds())) / 1000})
		return
	}
	msgs, _ := f.Messages(0, 0, 0)
	enc.Encode(struct {
		State         conv.State     `json:"state"`
		PendingDialog *conv.Dialog   `json:"pending_dialog"`
		Messages      []conv.Message `json:"messages"`
		SkippedLines  int            `json:"skipped_lines"`
	}{f.State(), f.PendingDialog(), msgs, f.SkippedLines()})
}
