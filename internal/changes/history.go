package changes

import (
	"context"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"lab/internal/conv"
)

// SessionChanges lists the files a history session's tool calls wrote
// (lab kept no snapshots of it): paths inside its folder relative to it,
// others absolute and marked outside. A shell command that wrote files
// names none, so they are not listed. Returns ENotFound, EUnavailable
// without a history.
func (s *Service) SessionChanges(ctx context.Context, sessionID string) (conv.TouchedFiles, error) {
	if s.cfg.Sessions == nil {
		return conv.TouchedFiles{}, conv.Errorf(conv.EUnavailable, "this server keeps no history")
	}
	sess, err := s.cfg.Sessions.Get(ctx, sessionID)
	if err != nil {
		return conv.TouchedFiles{}, err
	}
	calls := map[string]int{}
	outside := map[string]bool{}
	after := 0
	for {
		p, err := s.cfg.Sessions.Messages(ctx, sessionID, conv.Query{After: after, Limit: 500})
		if err != nil {
			return conv.TouchedFiles{}, err
		}
		for _, m := range p.Messages {
			if m.Tool == nil {
				continue
			}
			seen := map[string]bool{}
			for _, f := range m.Tool.Files {
				rel, out := relTo(sess.ProjectPath, f)
				if rel == "" || seen[rel] {
					continue
				}
				seen[rel] = true
				calls[rel]++
				outside[rel] = out
			}
		}
		if len(p.Messages) == 0 || p.LastSeq <= after {
			break
		}
		after = p.LastSeq
	}
	out := conv.TouchedFiles{Folder: sess.ProjectPath, Files: make([]conv.TouchedFile, 0, len(calls))}
	for p, n := range calls {
		out.Files = append(out.Files, conv.TouchedFile{Path: p, Calls: n, Outside: outside[p]})
	}
	sort.Slice(out.Files, func(i, j int) bool { return out.Files[i].Path < out.Files[j].Path })
	return out, nil
}

// relTo is p (absolute, or relative to folder) relative to folder, and
// whether it lies outside it (then it stays absolute, cleaned). "" for a
// path that cannot be placed.
func relTo(folder, p string) (string, bool) {
	if p == "" {
		return "", false
	}
	if !filepath.IsAbs(p) {
		if !filepath.IsAbs(folder) {
			return path.Clean(filepath.ToSlash(p)), false
		}
		p = filepath.Join(folder, p)
	}
	p = filepath.Clean(p)
	if folder != "" {
		if r, err := filepath.Rel(folder, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && r != "." {
			return filepath.ToSlash(r), false
		}
	}
	return p, true
}

// SessionFile returns a file of a history session's folder as it is now.
// Returns what File does, and ENotFound for an unknown session.
func (s *Service) SessionFile(ctx context.Context, sessionID, path string) (conv.FileView, error) {
	if s.cfg.Sessions == nil {
		return conv.FileView{}, conv.Errorf(conv.EUnavailable, "this server keeps no history")
	}
	sess, err := s.cfg.Sessions.Get(ctx, sessionID)
	if err != nil {
		return conv.FileView{}, err
	}
	if !filepath.IsAbs(sess.ProjectPath) {
		return conv.FileView{}, conv.Errorf(conv.EConflict, "the session's folder is not recorded in its transcript")
	}
	return readFile(sess.ProjectPath, path)
}
