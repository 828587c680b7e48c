package httpapi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"

	"lab/internal/conv"
	"lab/internal/tmux"
)

// Terminals shows live runs' panes as their CLI draws them and types the
// operator's input into them. Errors: ENotFound, EConflict when the run
// ended or lab can only follow it (the message says why), EInvalid for
// input the terminal may not send.
type Terminals interface {
	// WatchTerminal follows the run's pane; the caller closes it.
	WatchTerminal(ctx context.Context, id string) (*tmux.Watcher, error)
	// TerminalInput types text, then presses named keys, into the pane.
	TerminalInput(ctx context.Context, id string, in conv.TerminalInput) error
}

func (s *Server) terminals() (Terminals, error) {
	if s.cfg.Terminals == nil {
		return nil, conv.Errorf(conv.EUnavailable, "this server has no terminal view")
	}
	return s.cfg.Terminals, nil
}

// TerminalScreen is the data of a terminal stream's "screen" event: the
// pane's size and the bytes that redraw it on a fresh terminal of that
// size (base64).
type TerminalScreen struct {
	Cols int    `json:"cols"`
	Rows int    `json:"rows"`
	Data []byte `json:"data"`
}

// TerminalEnd is the data of a terminal stream's "end" event.
type TerminalEnd struct {
	Reason string `json:"reason"`
}

// terminal: GET /api/v1/runs/{id}/terminal streams the run's pane as SSE:
// a "screen" event to start from (again after a resize, or when the
// client fell behind), then "output" events, each the base64 of the bytes
// the CLI wrote, until the client leaves, the pane closes ("end") or the
// server drains. Nothing watches the pane when no stream is open.
func (s *Server) terminal(w http.ResponseWriter, r *http.Request) error {
	ts, err := s.terminals()
	if err != nil {
		return err
	}
	if s.draining.Load() {
		return conv.Errorf(conv.EUnavailable, "the server is shutting down")
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go func() {
		select {
		case <-s.drained:
			cancel()
		case <-ctx.Done():
		}
	}()
	watch, err := ts.WatchTerminal(ctx, r.PathValue("id"))
	if err != nil {
		return err
	}
	defer watch.Close()
	s.metrics.terminals.Inc()
	defer s.metrics.terminals.Dec()
	defer s.closeStream(w)
	write := s.openStream(w)
	send := func(f []byte) bool {
		s.metrics.terminalBytes.Add(float64(len(f)))
		return write(f)
	}
	// No retry hint: a closed pane ends the stream for good, and the
	// client opens a new one when it wants the terminal again.
	for {
		next, stop := context.WithTimeout(ctx, s.cfg.Heartbeat)
		f, err := watch.Next(next)
		stop()
		switch {
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			// A token revoked meanwhile ends the stream, as the events
			// stream does at its heartbeat.
			if !s.stillAllowed(r) || !send([]byte(": still here\n\n")) {
				return nil
			}
			continue
		case err != nil:
			if ctx.Err() == nil {
				reason := "the terminal closed"
				if !errors.Is(err, tmux.ErrPaneGone) {
					s.log.Warn("terminal stream", "run", r.PathValue("id"), "err", err)
					reason = "lab lost the terminal: " + err.Error()
				}
				send(terminalFrame("end", TerminalEnd{Reason: reason}))
			}
			return nil
		}
		if sc := f.Screen; sc != nil {
			if !send(terminalFrame("screen", TerminalScreen{Cols: sc.Cols, Rows: sc.Rows, Data: sc.Data})) {
				return nil
			}
		}
		if len(f.Output) > 0 && !send(outputFrame(f.Output)) {
			return nil
		}
	}
}

// terminalFrame is an SSE event with v as its JSON data.
func terminalFrame(event string, v any) []byte {
	data, _ := json.Marshal(v) // plain fields: cannot fail
	return []byte("event: " + event + "\ndata: " + string(data) + "\n\n")
}

// outputFrame is an "output" event: the bytes as base64 (they are
// whatever the CLI wrote, not always whole UTF-8 characters).
func outputFrame(p []byte) []byte {
	const head, tail = "event: output\ndata: ", "\n\n"
	f := make([]byte, len(head), len(head)+base64.StdEncoding.EncodedLen(len(p))+len(tail))
	copy(f, head)
	f = base64.StdEncoding.AppendEncode(f, p)
	return append(f, tail...)
}

// terminalInput: POST /api/v1/runs/{id}/terminal/input types into the
// run's pane. Every input is logged with the run, who sent it, the keys
// and the text's length — never the text, which may be a secret typed at
// a login prompt.
func (s *Server) terminalInput(w http.ResponseWriter, r *http.Request) error {
	ts, err := s.terminals()
	if err != nil {
		return err
	}
	var in conv.TerminalInput
	if err := s.decode(w, r, &in); err != nil {
		return err
	}
	id := r.PathValue("id")
	err = ts.TerminalInput(r.Context(), id, in)
	attrs := []any{"run", id, "operator", operatorOf(r.Context()), "keys", in.Keys, "text_bytes", len(in.Text)}
	if err != nil {
		s.log.Info("terminal input refused or failed", append(attrs, "err", err)...)
		return err
	}
	s.log.Info("terminal input", attrs...)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// operatorOf names who made a request, for logs: the login session's
// non-secret handle or the bearer token's name.
func operatorOf(ctx context.Context) string {
	p := principalFrom(ctx)
	switch {
	case p == nil:
		return "unknown"
	case p.session != nil:
		return "session " + p.session.ID
	case p.token != nil:
		return "token " + p.token.Name
	}
	return "unknown"
}
