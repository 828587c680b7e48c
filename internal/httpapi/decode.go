package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"lab/internal/conv"
)

// decode reads one JSON object into v, strictly: the body is capped at
// MaxBodyBytes (413 beyond), unknown fields and trailing data are refused
// (400), so a client typo is an error rather than silently ignored.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) error {
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return s.decodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err != nil {
			return s.decodeError(err)
		}
		return conv.Errorf(conv.EInvalid, "request body must hold a single JSON object")
	}
	return nil
}

func (s *Server) decodeError(err error) error {
	var tooBig *http.MaxBytesError
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooBig):
		return conv.Wrap(conv.ETooLarge, err, fmt.Sprintf("request body is larger than %d bytes", tooBig.Limit))
	case errors.Is(err, io.EOF):
		return conv.Errorf(conv.EInvalid, "request body is empty: want a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return conv.Errorf(conv.EInvalid, "invalid JSON: the body ends too early")
	case errors.As(err, &syntax):
		return conv.Errorf(conv.EInvalid, "invalid JSON at byte %d: %s", syntax.Offset, syntax.Error())
	case errors.As(err, &typ):
		if typ.Field == "" {
			return conv.Errorf(conv.EInvalid, "request body must be a JSON object, not %s", typ.Value)
		}
		return conv.Errorf(conv.EInvalid, "field %q: got JSON %s; want %s", typ.Field, typ.Value, typ.Type)
	}
	// Unknown fields have no error type of their own in encoding/json.
	return conv.Errorf(conv.EInvalid, "invalid request: %s", trimJSONPrefix(err.Error()))
}

func trimJSONPrefix(s string) string {
	const p = "json: "
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}

// Window limits for message pages and session lists.
const (
	DefaultLimit = 100
	MaxLimit     = 500
)

// intParam reads a non-negative integer query parameter, def when absent.
func intParam(q url.Values, name string, def, max int) (int, error) {
	raw := q.Get(name)
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 0 {
		return 0, conv.Errorf(conv.EInvalid, "%s=%q: want a non-negative integer", name, raw)
	}
	if max > 0 && n > max {
		return 0, conv.Errorf(conv.EInvalid, "%s=%d: want at most %d", name, n, max)
	}
	return n, nil
}

// limitParam reads limit: 1..MaxLimit, DefaultLimit when absent.
func limitParam(q url.Values) (int, error) {
	n, err := intParam(q, "limit", DefaultLimit, MaxLimit)
	if err == nil && n == 0 {
		err = conv.Errorf(conv.EInvalid, "limit=0: want 1 to %d", MaxLimit)
	}
	return n, err
}

// windowQuery reads after, before and limit of a messages request. A
// page is read forward from after or backward from before, never both.
func windowQuery(q url.Values) (conv.Query, error) {
	var cq conv.Query
	var err error
	if q.Has("after") && q.Has("before") {
		return cq, conv.Errorf(conv.EInvalid, "after and before cannot be given together: page forward with after or backward with before")
	}
	if cq.After, err = intParam(q, "after", 0, 0); err != nil {
		return cq, err
	}
	if cq.Before, err = intParam(q, "before", 0, 0); err != nil {
		return cq, err
	}
	if cq.Limit, err = limitParam(q); err != nil {
		return cq, err
	}
	return cq, nil
}
