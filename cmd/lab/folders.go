package main

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"lab/internal/chat"
	"lab/internal/runs"
)

// pathList collects colon-separated absolute paths (like PATH).
type pathList []string

func (p *pathList) String() string { return strings.Join(*p, string(os.PathListSeparator)) }
func (p *pathList) Set(v string) error {
	for _, part := range filepath.SplitList(v) {
		if part = strings.TrimSpace(part); part != "" {
			*p = append(*p, part)
		}
	}
	return nil
}

// recentFolders are the folders runs and history sessions used, most
// recent first, for the folder picker.
func recentFolders(ctx context.Context, rs *runs.Service, lib *chat.Library) []string {
	type use struct {
		dir string
		at  time.Time
	}
	last := map[string]time.Time{}
	note := func(dir string, at time.Time) {
		if dir != "" && at.After(last[dir]) {
			last[dir] = at
		}
	}
	if list, err := rs.List(ctx); err == nil {
		for _, r := range list {
			note(r.Cwd, r.StartedAt)
		}
	}
	if l, err := lib.List(ctx, chat.SessionFilter{Limit: 200}); err == nil {
		for _, s := range l.Sessions {
			note(s.ProjectPath, s.ModTime)
		}
	}
	uses := make([]use, 0, len(last))
	for d, t := range last {
		uses = append(uses, use{d, t})
	}
	sort.Slice(uses, func(i, j int) bool {
		if !uses[i].at.Equal(uses[j].at) {
			return uses[i].at.After(uses[j].at)
		}
		return uses[i].dir < uses[j].dir
	})
	out := make([]string, len(uses))
	for i, u := range uses {
		out[i] = u.dir
	}
	return out
}
