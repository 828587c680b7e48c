package httpapi

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"lab/internal/conv"
)

// fakeRuns is a small in-memory run layer that keeps the rules a real one
// keeps: unknown ids are 404, ended runs refuse actions with 409, only the
// pending dialog's tool_id can be answered, and answers must fit it.
type fakeRuns struct {
	// listDelay makes List slow (a busy machine), for a hub's deadline.
	listDelay atomic.Int64
	mu        sync.Mutex
	runs      map[string]*fakeRun
	next      int
	broker    *Broker
	lastQ     conv.Query
}

type fakeRun struct {
	run        conv.Run
	msgs       []conv.Message
	pending    *conv.Dialog
	interrupts int
}

func newFakeRuns(b *Broker) *fakeRuns { return &fakeRuns{runs: map[string]*fakeRun{}, broker: b} }

// query is the last window the run layer was asked for.
func (f *fakeRuns) query() conv.Query {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lastQ
}

func (f *fakeRuns) get(id string) (*fakeRun, error) {
	r := f.runs[id]
	if r == nil {
		return nil, conv.Errorf(conv.ENotFound, "no run %q", id)
	}
	return r, nil
}

func (f *fakeRuns) live(id string) (*fakeRun, error) {
	r, err := f.get(id)
	if err == nil && r.run.State == conv.StateEnded {
		err = conv.Errorf(conv.EConflict, "run %s has ended", id)
	}
	return r, err
}

func (f *fakeRuns) changed(r *fakeRun) {
	f.broker.Publish(conv.Event{Type: conv.EventMessagesChanged, RunID: r.run.ID, State: r.run.State})
}

func (f *fakeRuns) append(r *fakeRun, m conv.Message) {
	m.Seq = len(r.msgs) + 1
	m.SetHash()
	r.msgs = append(r.msgs, m)
}

func (f *fakeRuns) List(ctx context.Context) ([]conv.Run, error) {
	if d := time.Duration(f.listDelay.Load()); d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []conv.Run
	for _, r := range f.runs {
		if r.run.ArchivedAt == nil {
			out = append(out, r.run)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].StartedAt.After(out[j].StartedAt) })
	return out, nil
}

func (f *fakeRuns) Start(ctx context.Context, req conv.StartRequest) (conv.Run, error) {
	if !filepath.IsAbs(req.Cwd) {
		return conv.Run{}, conv.Errorf(conv.EInvalid, "cwd must be an absolute path")
	}
	if st, err := os.Stat(req.Cwd); err != nil || !st.IsDir() {
		return conv.Run{}, conv.Errorf(conv.EInvalid, "cwd %s is not a directory", req.Cwd)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	r := &fakeRun{run: conv.Run{
		ID: fmt.Sprintf("r%d", f.next), Cwd: req.Cwd, Title: filepath.Base(req.Cwd),
		State: conv.StateIdle, StartedAt: time.Date(2026, 7, 8, 12, f.next, 0, 0, time.UTC),
	}}
	if req.Prompt != "" {
		r.run.Title, r.run.State = req.Prompt, conv.StateWorking
		f.append(r, conv.Message{Kind: conv.KindText, Role: conv.RoleUser, Text: req.Prompt})
	}
	if req.Title != "" {
		r.run.Title = req.Title
	}
	f.runs[r.run.ID] = r
	f.broker.Publish(conv.Event{Type: conv.EventRunChanged, RunID: r.run.ID})
	return r.run, nil
}

// ask makes run id wait on a question dialog.
func (f *fakeRuns) ask(id string, d conv.Dialog) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.runs[id]
	r.pending, r.run.State, r.run.Pending = &d, conv.StateQuestion, true
}

func (f *fakeRuns) Stop(ctx context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.live(id)
	if err != nil {
		return err
	}
	now := r.run.StartedAt.Add(time.Hour)
	r.run.State, r.run.EndedAt, r.pending, r.run.Pending = conv.StateEnded, &now, nil, false
	f.broker.Publish(conv.Event{Type: conv.EventRunChanged, RunID: id})
	return nil
}

func (f *fakeRuns) Seen(ctx context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.get(id)
	if err != nil {
		return err
	}
	now := time.Now()
	r.run.SeenAt = &now
	return nil
}

func (f *fakeRuns) Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lastQ = q
	r, err := f.get(id)
	if err != nil {
		return conv.Page{}, err
	}
	p := window(r.msgs, q)
	p.TranscriptID, p.State, p.PendingDialog = "t-"+id, r.run.State, r.pending
	return p, nil
}

func (f *fakeRuns) Get(ctx context.Context, id string) (conv.Run, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.get(id)
	if err != nil {
		return conv.Run{}, err
	}
	return r.run, nil
}

func (f *fakeRuns) Reply(ctx context.Context, id, text string, uploads ...string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.live(id)
	if err != nil {
		return err
	}
	if r.pending != nil {
		return conv.Errorf(conv.EConflict, "a dialog is pending: answer it or interrupt")
	}
	var atts []conv.AttachedFile
	for _, u := range uploads {
		atts = append(atts, conv.AttachedFile{Kind: conv.AttachFile, Name: u})
	}
	f.append(r, conv.Message{Kind: conv.KindText, Role: conv.RoleUser, Text: text, Attachments: atts})
	r.run.State = conv.StateWorking
	f.changed(r)
	return nil
}

func (f *fakeRuns) Interrupt(ctx context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.live(id)
	if err != nil {
		return err
	}
	r.interrupts++
	f.append(r, conv.Message{Kind: conv.KindLifecycle, Lifecycle: &conv.Lifecycle{Level: conv.LevelInfo, Text: "Interrupted"}})
	r.run.State = conv.StateNeedsInput
	f.changed(r)
	return nil
}

func (f *fakeRuns) Answer(ctx context.Context, id string, a conv.Answer) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.live(id)
	if err != nil {
		return err
	}
	d := r.pending
	if d == nil || d.ToolID != a.ToolID {
		return conv.Errorf(conv.EConflict, "the dialog %s is gone or changed", a.ToolID)
	}
	if len(a.Answers) != len(d.Questions) {
		return conv.Errorf(conv.EInvalid, "got %d answers; the dialog has %d questions", len(a.Answers), len(d.Questions))
	}
	out := &conv.Outcome{}
	for i, qa := range a.Answers {
		q := d.Questions[i]
		res := conv.QuestionResult{Question: q.Question, OtherText: qa.OtherText}
		for _, c := range qa.Chosen {
			if c >= len(q.Options) {
				return conv.Errorf(conv.EInvalid, "answers[%d]: option %d out of range", i, c)
			}
			res.Chosen = append(res.Chosen, q.Options[c].Label)
		}
		out.Results = append(out.Results, res)
	}
	answered := *d
	answered.Outcome = out
	f.append(r, conv.Message{Kind: conv.KindDialog, Dialog: &answered})
	r.pending, r.run.Pending, r.run.State = nil, false, conv.StateWorking
	f.changed(r)
	return nil
}

// window applies conv.Query's rules to a slice of messages.
func window(msgs []conv.Message, q conv.Query) conv.Page {
	var sel []conv.Message
	for _, m := range msgs {
		if m.Seq > q.After && (q.Before == 0 || m.Seq < q.Before) {
			sel = append(sel, m)
		}
	}
	if len(sel) > q.Limit {
		if q.After > 0 {
			sel = sel[:q.Limit]
		} else {
			sel = sel[len(sel)-q.Limit:]
		}
	}
	p := conv.Page{Messages: slices.Clone(sel)}
	if len(sel) > 0 {
		p.FirstSeq, p.LastSeq = sel[0].Seq, sel[len(sel)-1].Seq
		p.HasMoreBefore = sel[0].Seq > 1
	}
	return p
}

// fakeSessions serves history from real files in a directory: one
// "<id>.jsonl" per session, one user prompt per line. A file that cannot
// be read is an internal error, as an unreadable transcript would be.
type fakeSessions struct {
	dir string
}

func (f *fakeSessions) List(ctx context.Context, q SessionQuery) (SessionList, error) {
	ents, err := os.ReadDir(f.dir)
	if err != nil {
		return SessionList{}, conv.Wrap(conv.EInternal, err, "list sessions")
	}
	var all []conv.Session
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return SessionList{}, conv.Wrap(conv.EInternal, err, "list sessions")
		}
		title, err := firstLine(filepath.Join(f.dir, e.Name()))
		if err != nil {
			return SessionList{}, conv.Wrap(conv.EInternal, err, "list sessions")
		}
		if q.Query != "" && !strings.Contains(strings.ToLower(title), strings.ToLower(q.Query)) {
			continue
		}
		all = append(all, conv.Session{ID: id, ProjectPath: f.dir, Title: title, Size: info.Size(), ModTime: info.ModTime().UTC()})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].ModTime.After(all[j].ModTime) })
	list := SessionList{Total: len(all)}
	if q.Offset < len(all) {
		list.Sessions = all[q.Offset:min(len(all), q.Offset+q.Limit)]
	}
	list.HasMore = q.Offset+len(list.Sessions) < len(all)
	return list, nil
}

func firstLine(path string) (string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Scan()
	return sc.Text(), sc.Err()
}

func (f *fakeSessions) Get(ctx context.Context, id string) (conv.Session, error) {
	l, err := f.List(ctx, SessionQuery{Limit: MaxLimit})
	if err != nil {
		return conv.Session{}, err
	}
	for _, s := range l.Sessions {
		if s.ID == id {
			return s, nil
		}
	}
	return conv.Session{}, conv.Errorf(conv.ENotFound, "no session %q", id)
}

func (f *fakeSessions) Messages(ctx context.Context, id string, q conv.Query) (conv.Page, error) {
	if strings.ContainsAny(id, `/\`) {
		return conv.Page{}, conv.Errorf(conv.ENotFound, "no session %q", id)
	}
	b, err := os.ReadFile(filepath.Join(f.dir, id+".jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		return conv.Page{}, conv.Errorf(conv.ENotFound, "no session %q", id)
	}
	if err != nil {
		return conv.Page{}, conv.Wrap(conv.EInternal, err, "read transcript")
	}
	var msgs []conv.Message
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		m := conv.Message{Seq: i + 1, Kind: conv.KindText, Role: conv.RoleUser, Text: line}
		m.SetHash()
		msgs = append(msgs, m)
	}
	p := window(msgs, q)
	p.TranscriptID, p.State = id, conv.StateEnded
	return p, nil
}

// The fake's housekeeping keeps the real rules: only ended runs archive,
// only idle runs stop in bulk, and every id gets an answer.

func (f *fakeRuns) Archived(ctx context.Context) ([]conv.Run, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []conv.Run{}
	for _, r := range f.runs {
		if r.run.ArchivedAt != nil {
			out = append(out, r.run)
		}
	}
	return out, nil
}

func (f *fakeRuns) SetArchived(ctx context.Context, ids []string, archived bool) (conv.BulkResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	res := conv.BulkResult{Done: []string{}, Skipped: []conv.Skipped{}}
	for _, id := range ids {
		r, err := f.get(id)
		switch {
		case err != nil:
			res.Skipped = append(res.Skipped, conv.Skipped{ID: id, Reason: conv.MessageOf(err)})
		case r.run.State != conv.StateEnded:
			res.Skipped = append(res.Skipped, conv.Skipped{ID: id, Reason: "still running"})
		default:
			r.run.ArchivedAt = nil
			if archived {
				at := r.run.StartedAt.Add(2 * time.Hour)
				r.run.ArchivedAt = &at
			}
			res.Done = append(res.Done, id)
		}
	}
	return res, nil
}

func (f *fakeRuns) StopIdle(ctx context.Context, ids []string) (conv.BulkResult, error) {
	res := conv.BulkResult{Done: []string{}, Skipped: []conv.Skipped{}}
	for _, id := range ids {
		f.mu.Lock()
		r, err := f.get(id)
		idle := err == nil && !r.run.Pending && (r.run.State == conv.StateIdle || r.run.State == conv.StateNeedsInput)
		f.mu.Unlock()
		if !idle {
			res.Skipped = append(res.Skipped, conv.Skipped{ID: id, Reason: "not idle"})
			continue
		}
		f.Stop(ctx, id)
		res.Done = append(res.Done, id)
	}
	return res, nil
}

// The fake's continuity keeps the real rules: a live run has nothing to
// resume, a followed process cannot be attached twice, and attaching or
// resuming makes a new run.

func (f *fakeRuns) External(ctx context.Context) ([]conv.ExternalSession, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	e := conv.ExternalSession{Provider: "claude", PID: 4242, SessionID: "ext-1", Cwd: "/w", Status: "idle",
		Tmux: &conv.TmuxPane{Socket: "/tmp/tmux-0/default", Pane: "%3", Session: "ops"}}
	for _, r := range f.runs {
		if r.run.Attached != nil && r.run.Attached.PID == 4242 && r.run.State != conv.StateEnded {
			e.RunID = r.run.ID
		}
	}
	return []conv.ExternalSession{e}, nil
}

func (f *fakeRuns) Attach(ctx context.Context, provider string, pid int) (conv.Run, error) {
	ext, _ := f.External(ctx)
	if pid != ext[0].PID {
		return conv.Run{}, conv.Errorf(conv.ENotFound, "no process %d", pid)
	}
	if ext[0].RunID != "" {
		return conv.Run{}, conv.Errorf(conv.EConflict, "run %s already follows this session", ext[0].RunID)
	}
	return f.add(conv.Run{Cwd: "/w", Title: "w", State: conv.StateIdle, SessionID: "ext-1", Attached: &conv.Attachment{PID: pid, Pane: "ops:%3"}}), nil
}

func (f *fakeRuns) Resume(ctx context.Context, id string) (conv.Run, error) {
	f.mu.Lock()
	r, err := f.get(id)
	f.mu.Unlock()
	switch {
	case err != nil:
		return conv.Run{}, err
	case r.run.State != conv.StateEnded:
		return conv.Run{}, conv.Errorf(conv.EConflict, "run %s is still running", id)
	}
	return f.add(conv.Run{Cwd: r.run.Cwd, Title: r.run.Title, State: conv.StateIdle, SessionID: "t-" + id}), nil
}

func (f *fakeRuns) ResumeSession(ctx context.Context, id string) (conv.Run, error) {
	if id != "s1" {
		return conv.Run{}, conv.Errorf(conv.ENotFound, "no session %s", id)
	}
	return f.add(conv.Run{Cwd: "/w", Title: "s1", State: conv.StateIdle, SessionID: id}), nil
}

// add records a new run like Start does.
func (f *fakeRuns) add(run conv.Run) conv.Run {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	run.ID, run.StartedAt = fmt.Sprintf("r%d", f.next), time.Date(2026, 7, 8, 12, f.next, 0, 0, time.UTC)
	f.runs[run.ID] = &fakeRun{run: run}
	f.broker.Publish(conv.Event{Type: conv.EventRunChanged, RunID: run.ID})
	return run
}
