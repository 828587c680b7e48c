package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"lab/internal/claude"
	"lab/internal/conv"
)

func init() {
	commands["fold"] = command{summary: "fold a Claude Code transcript into the chat JSON the API serves", run: runFold}
}

// foldReport is what `lab fold FILE` prints: the same JSON shapes the API
// serves for a conversation.
type foldReport struct {
	State         conv.State     `json:"state"`
	PendingDialog *conv.Dialog   `json:"pending_dialog"`
	Messages      []conv.Message `json:"messages"`
	SkippedLines  int            `json:"skipped_lines"`
}

// foldStats is what `lab fold --stats FILE` prints.
type foldStats struct {
	Bytes        int64   `json:"bytes"`
	Lines        int     `json:"lines"`
	Messages     int     `json:"messages"`
	SkippedLines int     `json:"skipped_lines"`
	FoldMS       float64 `json:"fold_ms"`
}

// runFold: lab fold [--stats] FILE.
func runFold(ctx context.Context, args []string, env Env) error {
	fs := newFlags("fold", "[--stats] FILE", "Folds a Claude Code transcript (.jsonl) and prints the chat as JSON.", env)
	stats := fs.Bool("stats", false, "fold without printing messages; print sizes and the fold time")
	if err := parseFlags(fs, args, env); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("fold takes one transcript file, got %d arguments", fs.NArg())
	}
	path := fs.Arg(0)
	file, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("cannot open transcript: %w", err)
	}
	defer file.Close()
	if info, err := file.Stat(); err != nil {
		return fmt.Errorf("cannot read transcript %s: %w", path, err)
	} else if info.IsDir() {
		return fmt.Errorf("cannot read transcript %s: it is a directory", path)
	}

	start := time.Now()
	f := claude.NewFold()
	// Streamed: the fold keeps only what the chat shows, so memory stays
	// flat however big the file is.
	if _, err := f.ReadFrom(ctxReader{ctx, file}); err != nil {
		return fmt.Errorf("cannot read transcript %s: %w", path, err)
	}
	elapsed := time.Since(start)

	enc := json.NewEncoder(env.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if *stats {
		return enc.Encode(foldStats{
			Bytes:        f.Bytes(),
			Lines:        f.Lines(),
			Messages:     f.Len(),
			SkippedLines: f.SkippedLines(),
			FoldMS:       math.Round(float64(elapsed.Microseconds())) / 1000,
		})
	}
	msgs, _ := f.Messages(0, 0, 0)
	return enc.Encode(foldReport{State: f.State(), PendingDialog: f.PendingDialog(), Messages: msgs, SkippedLines: f.SkippedLines()})
}

// ctxReader stops a long read when the command is interrupted.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
