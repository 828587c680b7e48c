package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"lab/internal/agent"
	"lab/internal/claude"
	"lab/internal/codex"
	"lab/internal/conv"
)

func init() {
	commands["fold"] = command{summary: "fold a transcript (Claude Code or Codex) into the chat JSON the API serves", run: runFold}
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

// runFold: lab fold [--stats] [--provider NAME] FILE.
func runFold(ctx context.Context, args []string, env Env) error {
	fs := newFlags("fold", "[--stats] [--provider claude|codex] FILE", "Folds a transcript (.jsonl: a Claude Code transcript or a Codex rollout) and prints\nthe chat as JSON.", env)
	stats := fs.Bool("stats", false, "fold without printing messages; print sizes and the fold time")
	provider := fs.String("provider", "", "the CLI that wrote the file: claude or codex (default: told from its first line)")
	if err := parseFlags(fs, args, env); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("fold takes one transcript file, got %d arguments", fs.NArg())
	}
	if p := *provider; p != "" && p != claude.Name && p != codex.Name {
		return fmt.Errorf("unknown provider %q: want %s or %s", p, claude.Name, codex.Name)
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

	name := *provider
	if name == "" {
		head := make([]byte, 4096)
		n, _ := io.ReadFull(file, head)
		name = claude.Name
		if codex.LooksLikeRollout(head[:n]) {
			name = codex.Name
		}
		if _, err := file.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("cannot read transcript %s: %w", path, err)
		}
	}
	var f interface {
		agent.Fold
		ReadFrom(io.Reader) (int64, error)
	}
	f = claude.NewFold()
	if name == codex.Name {
		f = codex.NewFold()
	}

	start := time.Now()
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
