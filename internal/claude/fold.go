package claude

import (
	"io"

	"lab/internal/foldkit"
)

// Fold turns a Claude Code transcript into the chat stream incrementally:
// feed it the file's bytes in any split with Write and it holds exactly
// what folding the whole file at once would. It keeps only what the chat
// shows (tool outputs truncated), never the raw lines.
//
// The machinery both CLIs' folds share is foldkit's: the Input holds the
// partial last line, the Stream the messages, calls, pending dialogs and
// state. What is Claude Code's own is here and in fold_*.go: the peek
// (line_decode.go), the line parse, and what each record means.
//
// A Fold is not safe for concurrent use; callers lock.
type Fold struct {
	foldkit.Input  // transcript bytes -> complete lines
	foldkit.Stream // the chat stream and its state

	session []byte // raw sessionId value last seen (Stream keeps it decoded)

	// approvedPlan is 1 + the index of a plan just approved whose approval
	// mode the following attachment lines may still tell (0: none), and
	// planExited says the plan_mode_exit attachment came (see
	// fold_approval.go).
	approvedPlan int
	planExited   bool

	// meter adds up the requests' usage (fold_usage.go).
	meter foldkit.Meter

	ln  foldLine // scratch, reused across lines
	msg foldMessage
	blk foldBlock
	raw []byte // the line being folded (scratch): where its parts lie
}

// NewFold returns an empty fold.
func NewFold() *Fold {
	return &Fold{Stream: foldkit.NewStream("transcript")}
}

// Write feeds appended transcript bytes. A trailing incomplete line is held
// until its newline arrives (or dropped as it streams in when its prefix
// shows bookkeeping: a 50 MB request blob then costs nothing to hold).
// Malformed lines are skipped and counted.
func (f *Fold) Write(p []byte) { f.Feed(p, foldPeek, f.line) }

// ReadFrom feeds everything r yields, exactly as Write would, and returns
// the bytes read and the first read error other than io.EOF, reading
// straight onto a held line (see foldkit.Input.FeedFrom).
func (f *Fold) ReadFrom(r io.Reader) (int64, error) { return f.FeedFrom(r, foldPeek, f.line) }

// line folds one complete line that is not blank and that the peek did not
// skip, reporting false when it is malformed.
//
// Write, ReadFrom and line read alike in both adapters: each binds
// foldkit's Input to its own CLI's peek and line parse (a per-CLI binding,
// kept as direct calls on the fold's hot path).
func (f *Fold) line(b []byte) bool {
	f.raw = b
	ok := f.ln.parse(b) && f.apply(&f.ln)
	f.raw = nil
	return ok
}
