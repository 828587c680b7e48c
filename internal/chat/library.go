package chat

import (
	"context"
	"sort"
	"strings"

	"lab/internal/agent"
	"lab/internal/conv"
)

// Library serves the read-only history of every session each provider's
// CLI kept on disk, folding each on demand and caching the folded views.
type Library struct {
	shelves []Shelf
	views   *viewCache
	// owners maps a session id to the run that owns it; may be nil.
	owners func(ctx context.Context) map[string]string
}

// Default bounds of the history view cache: a few transcripts, and no more
// folded source than this many bytes in all.
const (
	libraryMaxViews = 8
	libraryMaxBytes = 1 << 30
)

// Shelf is one provider's sessions: where they are listed and how their
// transcripts fold.
type Shelf struct {
	Provider string
	History  agent.History
	NewFold  func() agent.Fold
}

// NewLibrary returns a Library over the shelves (one per provider). owners,
// when set, names the run owning each session.
func NewLibrary(shelves []Shelf, owners func(ctx context.Context) map[string]string) *Library {
	return &Library{
		shelves: shelves,
		views:   newViewCache(libraryMaxViews, libraryMaxBytes),
		owners:  owners,
	}
}

// shelf returns the shelf of provider, or nil.
func (l *Library) shelf(provider string) *Shelf {
	for i := range l.shelves {
		if l.shelves[i].Provider == provider {
			return &l.shelves[i]
		}
	}
	return nil
}

// SessionFilter selects sessions: Q matches the project path or title,
// case-insensitively; Offset and Limit page through the newest-first list.
type SessionFilter struct {
	Q      string
	Offset int
	Limit  int
}

// SessionList is one page of sessions and the size of the whole match.
type SessionList struct {
	Sessions []conv.Session `json:"sessions"`
	Total    int            `json:"total"`
	// NextOffset is the offset of the next page, 0 when this is the last.
	NextOffset int `json:"next_offset,omitempty"`
}

// List returns the sessions matching f, newest first.
func (l *Library) List(ctx context.Context, f SessionFilter) (SessionList, error) {
	var all []conv.Session
	for _, sh := range l.shelves {
		list, err := sh.History.List()
		if err != nil {
			return SessionList{}, err
		}
		for i := range list {
			list[i].Provider = sh.Provider
		}
		all = append(all, list...)
	}
	sortSessions(all)
	var owners map[string]string
	if l.owners != nil {
		owners = l.owners(ctx)
	}
	q := strings.ToLower(strings.TrimSpace(f.Q))
	matched := all[:0]
	for _, s := range all {
		if q != "" && !strings.Contains(strings.ToLower(s.ProjectPath), q) && !strings.Contains(strings.ToLower(s.Title), q) {
			continue
		}
		s.RunID = owners[s.ID]
		matched = append(matched, s)
	}
	out := SessionList{Total: len(matched), Sessions: []conv.Session{}}
	if f.Offset < len(matched) {
		end := len(matched)
		if f.Limit > 0 && f.Offset+f.Limit < end {
			end = f.Offset + f.Limit
			out.NextOffset = end
		}
		out.Sessions = append(out.Sessions, matched[f.Offset:end]...)
	}
	return out, nil
}

// Messages returns a window of session id's chat. History is read-only, so
// a pending-looking tail dialog is not served as answerable here.
func (l *Library) Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error) {
	var err error
	for _, sh := range l.shelves {
		var path string
		if path, err = sh.History.Path(id); err == nil {
			return l.PageOf(sh.Provider, path, q)
		}
		if conv.KindOf(err) != conv.ENotFound {
			return conv.Page{}, err
		}
	}
	if err == nil {
		err = conv.Errorf(conv.ENotFound, "no session %s", id)
	}
	return conv.Page{}, err
}

// PageOf folds the transcript of provider at path (cached) and returns a
// window of it, read-only: dialogs are never answerable through it.
func (l *Library) PageOf(provider, path string, q conv.Query) (conv.Page, error) {
	sh := l.shelf(provider)
	if sh == nil {
		return conv.Page{}, conv.Errorf(conv.EUnavailable, "this lab does not know the provider %q", provider)
	}
	v := l.views.get(path, sh.NewFold)
	if _, err := v.Sync(); err != nil {
		return conv.Page{}, conv.Wrap(conv.EInternal, err, "cannot read the transcript")
	}
	l.views.trim()
	s := v.Page(q)
	p := pageOf(s)
	if p.PendingDialog != nil {
		p.PendingDialog.Answerable = false
	}
	return p, nil
}

// pageOf turns a snapshot into the API's page shape.
func pageOf(s Snapshot) conv.Page {
	return conv.Page{
		TranscriptID:  s.TranscriptID,
		State:         s.State,
		PendingDialog: s.Pending,
		Messages:      s.Messages,
		FirstSeq:      s.FirstSeq,
		LastSeq:       s.LastSeq,
		HasMoreBefore: s.MoreBefore,
	}
}

// sortSessions orders sessions newest first, ties by id, so lists merged
// from several providers interleave by time.
func sortSessions(s []conv.Session) {
	sort.SliceStable(s, func(i, j int) bool {
		if !s[i].ModTime.Equal(s[j].ModTime) {
			return s[i].ModTime.After(s[j].ModTime)
		}
		return s[i].ID < s[j].ID
	})
}
