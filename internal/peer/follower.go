package peer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"lab/internal/conv"
)

// Backoff between attempts to reach a peer: from minBackoff, doubling up
// to Config.MaxBackoff, or revokedBackoff once the peer refuses the token
// (only a new token, which restarts the follower, will help).
const (
	minBackoff     = 250 * time.Millisecond
	revokedBackoff = time.Minute
	// shortStream is how long a stream must have lasted for its end to
	// be retried at once rather than after a backoff.
	shortStream = time.Second
)

// follow keeps r's event stream open until ctx ends, republishing each
// event with its id translated. A stream that ends (the peer stopped, or
// dropped the hub for lagging) is reopened at once; a peer that cannot
// be reached is marked so and tried again with backoff.
func (h *Hub) follow(ctx context.Context, r *remote) {
	backoff := minBackoff
	first := true
	for ctx.Err() == nil {
		start := time.Now()
		err := h.stream(ctx, r, &first)
		if ctx.Err() != nil {
			return
		}
		if err == nil && time.Since(start) >= shortStream {
			backoff = minBackoff
			continue
		}
		if err != nil {
			h.failed(r, err)
		}
		limit := h.cfg.MaxBackoff
		if s, _, _ := r.reach.get(); s == conv.MachineRevoked {
			limit = revokedBackoff
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(min(backoff, limit)):
		}
		backoff = min(backoff*2, limit)
	}
}

// stream opens r's event stream and reads it until it ends: nil when an
// open stream ended, else why it could not be opened or read.
func (h *Hub) stream(ctx context.Context, r *remote, first *bool) error {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	q := url.Values{"heartbeat": {strconv.Itoa(int(max(h.cfg.Heartbeat/time.Second, 1)))}}
	req, err := http.NewRequestWithContext(sctx, http.MethodGet, r.url("/api/v1/events", q).String(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+r.token)
	req.Header.Set("Accept", "text/event-stream")
	res, err := h.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
		return &peerError{peer: r.name, status: res.StatusCode, msg: errorMessage(res, raw)}
	}
	h.reached(r)
	h.caughtUp(ctx, r, first)

	// A stream silent for three heartbeats is dead (a peer whose machine
	// went away without closing the connection): cancel and reconnect.
	dead := 3 * h.cfg.Heartbeat
	watchdog := time.AfterFunc(dead, cancel)
	defer watchdog.Stop()
	var ev sseEvent
	br := bufio.NewReaderSize(res.Body, 16<<10)
	for {
		line, err := readLine(br)
		if err != nil {
			if ctx.Err() == nil && sctx.Err() != nil {
				return errors.New("its event stream went silent (no heartbeat)")
			}
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil
			}
			return err
		}
		watchdog.Reset(dead)
		if ev.line(line) {
			h.republish(r, ev.typ, ev.data)
			ev = sseEvent{}
		}
	}
}

// caughtUp refreshes what the hub knows of r's runs once its stream is
// open: events missed while it was away are then covered by one
// run.changed per run (clients refetch, the notifier compares). The first
// time since lab started, the live runs are seeded to the notifier first,
// so a dialog that was already waiting is not pushed again.
func (h *Hub) caughtUp(ctx context.Context, r *remote, first *bool) {
	runs, err := h.peerRuns(ctx, r, false)
	if err != nil {
		return
	}
	if *first {
		*first = false
		if h.cfg.Seed != nil {
			var ids []string
			for _, run := range runs {
				if run.State != conv.StateEnded {
					ids = append(ids, run.ID)
				}
			}
			h.cfg.Seed(ids)
		}
	}
	for _, run := range runs {
		h.cfg.Publish(conv.Event{Type: conv.EventRunChanged, RunID: run.ID, State: run.State})
		h.cfg.Publish(conv.Event{Type: conv.EventMessagesChanged, RunID: run.ID})
	}
}

// republish passes one of r's events on with its run id translated. The
// peer's own heartbeats stay with the follower, and events of runs the
// peer itself relays are not passed on (a hub shows each peer's own runs).
func (h *Hub) republish(r *remote, typ string, data []byte) {
	var e conv.Event
	if len(data) > 0 && json.Unmarshal(data, &e) != nil {
		return
	}
	if typ != "" {
		e.Type = typ
	}
	switch {
	case e.Type == "" || e.Type == conv.EventHeartbeat || e.Type == conv.EventMachineChanged:
		return
	case e.RunID != "" && relayed(e.RunID):
		return
	case e.RunID != "":
		e.RunID = Join(r.name, e.RunID)
	}
	h.cfg.Publish(e)
}

// sseEvent gathers one server-sent event's fields, line by line.
type sseEvent struct {
	typ  string
	data []byte
	has  bool
}

// line takes one line of the stream (without its ending) and reports
// whether it completed an event (a blank line after fields).
func (e *sseEvent) line(l []byte) bool {
	if len(l) == 0 {
		return e.has
	}
	if l[0] == ':' {
		return false // a comment
	}
	field, value, _ := bytes.Cut(l, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(field) {
	case "event":
		e.typ, e.has = string(value), true
	case "data":
		if e.has && e.data != nil {
			e.data = append(e.data, '\n')
		}
		e.data, e.has = append(e.data, value...), true
	}
	return false
}

// maxLine bounds one line of an event stream; a longer one is skipped.
const maxLine = 1 << 20

// readLine reads one line without its ending (\n, \r\n).
func readLine(br *bufio.Reader) ([]byte, error) {
	var long []byte
	for {
		part, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long) < maxLine {
				long = append(long, part...)
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if long != nil {
			if len(long) >= maxLine {
				return []byte(":"), nil // read as a comment: skipped
			}
			part = append(long, part...)
		}
		return bytes.TrimRight(part, "\r\n"), nil
	}
}
