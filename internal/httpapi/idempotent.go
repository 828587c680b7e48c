package httpapi

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"time"

	"lab/internal/conv"
	"lab/internal/store"
)

// Requests that type into a run (a reply, an answer) may carry an
// Idempotency-Key: a client that could not tell whether an attempt landed
// (its connection died, it went offline) sends it again with the same key
// and gets the first attempt's answer instead of a second reply typed
// into the run. The first attempt runs to its end even if its client is
// gone, so there is an answer to give; answers are kept in the database
// for a day, so a restart of lab between two attempts changes nothing.
// Attempts with one key take turns: the second waits for the first.

const (
	// IdempotencyHeader names the key; IdempotentReplayHeader marks an
	// answer given again.
	IdempotencyHeader      = "Idempotency-Key"
	IdempotentReplayHeader = "Idempotent-Replayed"
	// idempotencyTTL is how long answers are remembered.
	idempotencyTTL = 24 * time.Hour
	// detachedTimeout bounds an attempt that runs on without its client.
	detachedTimeout = 2 * time.Minute
)

// idempotencyKeyRE: what a client's random key looks like (a UUID, or
// base64url); long enough to be unguessable, short enough to store.
var idempotencyKeyRE = regexp.MustCompile(`^[A-Za-z0-9_-]{16,128}$`)

// keyLocks serialises the attempts of one key.
type keyLocks struct {
	mu    sync.Mutex
	locks map[string]*keyLock
}

type keyLock struct {
	mu   sync.Mutex
	refs int
}

// lock takes key's lock, waiting for an attempt holding it.
func (k *keyLocks) lock(key string) (unlock func()) {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = map[string]*keyLock{}
	}
	l := k.locks[key]
	if l == nil {
		l = &keyLock{}
		k.locks[key] = l
	}
	l.refs++
	k.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		k.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
}

// waiting is how many attempts hold or wait for key's lock.
func (k *keyLocks) waiting(key string) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	if l := k.locks[key]; l != nil {
		return l.refs
	}
	return 0
}

// idempotent wraps a handler of a request that acts on a run. Without a
// key it is h itself. With one: an answer remembered for the key is given
// again (409 when the key named another request); otherwise h runs on a
// context its client's leaving does not cancel, and its answer, unless a
// 5xx (worth another attempt), is remembered. A malformed key is 400.
func (s *Server) idempotent(h apiFunc) apiFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		key := r.Header.Get(IdempotencyHeader)
		if key == "" {
			return h(w, r)
		}
		if !idempotencyKeyRE.MatchString(key) {
			return conv.Errorf(conv.EInvalid, "%s must be 16 to 128 letters, digits, '-' or '_'", IdempotencyHeader)
		}
		request := r.Method + " " + r.URL.Path
		defer s.idemLocks.lock(key)()
		if a, ok, err := s.store.Remembered(r.Context(), key, idempotencyTTL); err != nil {
			return err
		} else if ok {
			if a.Request != request {
				return conv.Errorf(conv.EConflict, "this %s was used for another request (%s)", IdempotencyHeader, a.Request)
			}
			s.log.Info("request answered again", "request", request, "status", a.Status, "first", a.At)
			replay(w, a)
			return nil
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), detachedTimeout)
		defer cancel()
		r = r.WithContext(ctx)
		rec := &recorder{header: http.Header{}, status: http.StatusOK}
		if err := h(rec, r); err != nil {
			s.writeError(rec, r, err)
		}
		if rec.status < 500 {
			a := store.Answered{Request: request, Status: rec.status, Body: rec.body.Bytes()}
			if err := s.store.Remember(ctx, key, a, idempotencyTTL); err != nil {
				s.log.Warn("cannot remember an idempotent answer; a retry would act again", "request", request, "err", err)
			}
		}
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		w.Write(rec.body.Bytes())
		return nil
	}
}

// replay writes a remembered answer.
func replay(w http.ResponseWriter, a store.Answered) {
	w.Header().Set(IdempotentReplayHeader, "true")
	if len(a.Body) > 0 {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(a.Body)))
	}
	w.WriteHeader(a.Status)
	w.Write(a.Body)
}

// recorder keeps an answer (a status and a small JSON body) to pass on
// once it is remembered.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
}
func (r *recorder) Write(p []byte) (int, error) {
	r.wrote = true
	return r.body.Write(p)
}
