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
	index   *Index
	// owners maps a session id to the run that owns it; may be nil.
	owners func(ctx context.Context) map[string]Owner
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

// Owner is the run that last had a session (a resumed or attached run
// takes it over), and whether that run is live.
type Owner struct {
	RunID string
	Live  bool
}

// NewLibrary returns a Library over the shelves (one per provider). owners,
// when set, names the run owning each session.
func NewLibrary(shelves []Shelf, owners func(ctx context.Context) map[string]Owner) *Library {
	return &Library{
		shelves: shelves,
		views:   newViewCache(libraryMaxViews, libraryMaxBytes),
		index:   NewIndex(),
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

// SessionFilter selects sessions: Q matches when the project path or the
// title contains it, or (unless it holds a "/", which makes it a path)
// when the conversation holds every word of it as word prefixes (see
// Index.Search), case-insensitively; Offset and Limit page through the
// newest-first list.
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
	all, err := l.update()
	if err != nil {
		return SessionList{}, err
	}
	var owners map[string]Owner
	if l.owners != nil {
		owners = l.owners(ctx)
	}
	q := strings.ToLower(strings.TrimSpace(f.Q))
	var said map[string]bool
	if q != "" && !strings.Contains(q, "/") {
		// A query with a slash is a path: it asks for a folder, and its
		// words would match every conversation that mentions them.
		said = l.index.Search(q)
	}
	matched := all[:0]
	for _, s := range all {
		if q != "" && !said[s.TranscriptPath] && !strings.Contains(strings.ToLower(s.ProjectPath), q) && !strings.Contains(strings.ToLower(s.Title), q) {
			continue
		}
		o := owners[s.ID]
		s.RunID, s.RunLive = o.RunID, o.Live
		if st, ok := l.index.Stats(s.TranscriptPath); ok {
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

// update lists every shelf's sessions, newest first, and brings the index
// in line with them.
func (l *Library) update() ([]conv.Session, error) {
	var all []conv.Session
	var files []IndexFile
	for _, sh := range l.shelves {
		list, err := sh.History.List()
		if err != nil {
			return nil, err
		}
		for i := range list {
			list[i].Provider = sh.Provider
			files = append(files, IndexFile{Path: list[i].TranscriptPath, Size: list[i].Size, ModTime: list[i].ModTime, NewFold: sh.NewFold})
		}
		all = append(all, list...)
	}
	sortSessions(all)
	l.index.Update(files)
	return all, nil
}

// Session returns one session as List shows it.
func (l *Library) Session(ctx context.Context, id string) (conv.Session, error) {
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
	if ctx.Err() == nil {
		l.update()
	}
}

// Messages returns a window of session id's chat. History is read-only, so
// a pending-looking tail dialog is not served as answerable here.
func (l *Library) Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error) {
	provider, path, err := l.find(id)
	if err != nil {
		return conv.Page{}, err
	}
	return l.PageOf(provider, path, q)
}

// SessionImage returns image n of message seq of session id's chat.
func (l *Library) SessionImage(ctx context.Context, id string, seq, n int) (conv.Image, error) {
	provider, path, err := l.find(id)
	if err != nil {
		return conv.Image{}, err
	}
	return l.ImageOf(provider, path, seq, n)
}

// find returns session id's provider and transcript. ENotFound.
func (l *Library) find(id string) (provider, path string, err error) {
	for _, sh := range l.shelves {
		if path, err = sh.History.Path(id); err == nil {
			return sh.Provider, path, nil
		}
		if conv.KindOf(err) != conv.ENotFound {
			return "", "", err
		}
	}
	if err == nil {
		err = conv.Errorf(conv.ENotFound, "no session %s", id)
	}
	return "", "", err
}

// PageOf folds the transcript of provider at path (cached) and returns a
// window of it, read-only: dialogs are never answerable through it.
func (l *Library) PageOf(provider, path string, q conv.Query) (conv.Page, error) {
	v, err := l.viewOf(provider, path)
	if err != nil {
		return conv.Page{}, err
	}
	s := v.Page(q)
	p := pageOf(s)
	if p.PendingDialog != nil {
		p.PendingDialog.Answerable = false
	}
	return p, nil
}

// viewOf returns the cached view of the transcript at path, synced.
func (l *Library) viewOf(provider, path string) (*View, error) {
	sh := l.shelf(provider)
	if sh == nil {
		return nil, conv.Errorf(conv.EUnavailable, "this lab does not know the provider %q", provider)
	}
	v := l.views.get(path, sh.NewFold)
	if _, err := v.Sync(); err != nil {
		return nil, conv.Wrap(conv.EInternal, err, "cannot read the transcript")
	}
	l.views.trim()
	return v, nil
}

// UsageOf is what the conversation of the transcript at path used of its
// model (nil when it recorded none).
func (l *Library) UsageOf(provider, path string) (*conv.Usage, error) {
	v, err := l.viewOf(provider, path)
	if err != nil {
		return nil, err
	}
	return v.Usage(), nil
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
		Usage:         s.Usage,
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
