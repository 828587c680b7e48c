package chat

import (
	"context"
	"strings"

	"lab/internal/claude"
	"lab/internal/conv"
)

// Library serves the read-only history of every transcript under the
// operator's projects folder, folding each on demand and caching the
// folded views.
type Library struct {
	hist  *claude.History
	views *viewCache
	index *Index
	// owners maps a session id to the run that owns it; may be nil.
	owners func(ctx context.Context) map[string]string
}

// Default bounds of the history view cache: a few transcripts, and no more
// folded source than this many bytes in all.
const (
	libraryMaxViews = 8
	libraryMaxBytes = 1 << 30
)

// NewLibrary returns a Library over projectsDir (~/.claude/projects).
// owners, when set, names the run owning each session.
func NewLibrary(projectsDir string, owners func(ctx context.Context) map[string]string) *Library {
	return &Library{
		hist:   claude.NewHistory(projectsDir),
		views:  newViewCache(libraryMaxViews, libraryMaxBytes),
		index:  NewIndex(),
		owners: owners,
	}
}

// SessionFilter selects sessions: Q matches when the project path or the
// title contains it, or when the conversation holds every word of it (as
// word prefixes, see Index.Search), case-insensitively; Offset and Limit
// page through the newest-first list.
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

// List returns the sessions matching f, newest first, each with its
// message count and last activity. It brings the index up to date first,
// which folds only what transcripts gained since the last call.
func (l *Library) List(ctx context.Context, f SessionFilter) (SessionList, error) {
	files, err := l.hist.Files()
	if err != nil {
		return SessionList{}, err
	}
	l.index.Update(files)
	var owners map[string]string
	if l.owners != nil {
		owners = l.owners(ctx)
	}
	q := strings.ToLower(strings.TrimSpace(f.Q))
	var said map[string]bool
	if q != "" {
		said = l.index.Search(q)
	}
	matched := make([]conv.Session, 0, len(files))
	for _, sf := range files {
		s := sf.Session
		if q != "" && !said[sf.Path] && !strings.Contains(strings.ToLower(s.ProjectPath), q) && !strings.Contains(strings.ToLower(s.Title), q) {
			continue
		}
		s.RunID = owners[s.ID]
		if st, ok := l.index.Stats(sf.Path); ok {
			s.Messages, s.LastActivity = st.Messages, st.LastActivity
		}
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

// Session returns one session as List shows it.
func (l *Library) Session(ctx context.Context, id string) (conv.Session, error) {
	if _, err := l.hist.Path(id); err != nil {
		return conv.Session{}, err
	}
	list, err := l.List(ctx, SessionFilter{})
	if err != nil {
		return conv.Session{}, err
	}
	for _, s := range list.Sessions {
		if s.ID == id {
			return s, nil
		}
	}
	return conv.Session{}, conv.Errorf(conv.ENotFound, "no session %s", id)
}

// Warm builds the index ahead of the first history visit, which would
// otherwise wait for every transcript to be folded once.
func (l *Library) Warm(ctx context.Context) {
	if files, err := l.hist.Files(); err == nil && ctx.Err() == nil {
		l.index.Update(files)
	}
}

// Messages returns a window of session id's chat. History is read-only, so
// a pending-looking tail dialog is not served as answerable here.
func (l *Library) Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error) {
	path, err := l.hist.Path(id)
	if err != nil {
		return conv.Page{}, err
	}
	return l.PageOf(path, q)
}

// PageOf folds the transcript at path (cached) and returns a window of it,
// read-only: dialogs are never answerable through it.
func (l *Library) PageOf(path string, q conv.Query) (conv.Page, error) {
	v := l.views.get(path)
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
