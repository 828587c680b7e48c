package fakeapi

import (
	"net/http"
	"time"
)

// Request is what a scripted API records of every request, whatever its
// wire format; a fake's request type embeds it and adds its body's parse.
type Request struct {
	Seq      int // 1-based arrival order
	Time     time.Time
	Method   string
	Path     string // URL path without the query
	RawQuery string
	Kind     string // which endpoint, in the fake's own names
	Model    string
	Stream   bool
	// Tools are the names of the tools the request offered.
	Tools []string
	// Prompt is the text of the newest user message the operator typed
	// (not tool results, not context the CLI injects); it picks the
	// scenario.
	Prompt string
	// Scenario is the scenario that answered.
	Scenario string
	// Usage is the usage the answer reported (zero for a failure).
	Usage Usage
}

// Usage is what a scripted answer reports it used, in the terms of the
// Anthropic API: Input is input not read from the cache (the Responses
// API counts cached input inside its input tokens; its fake adds them).
type Usage struct {
	Input, Output, CacheRead, CacheWrite int
}

// Context is what the request sent in all: the context as full as it was.
func (u Usage) Context() int { return u.Input + u.CacheRead + u.CacheWrite }

// Received starts the record of r, as an endpoint of kind until its body
// says more.
func Received(r *http.Request, kind string) Request {
	return Request{Time: time.Now(), Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Kind: kind}
}

// Head returns the common part of a request (a fake's request type gets
// it by embedding Request).
func (r *Request) Head() *Request { return r }

// Add records r in b, numbering it in arrival order, and wakes waiters.
func Add[R any, P interface {
	*R
	Head() *Request
}](b *Base[R], r P) {
	b.Record(func(seq int) R {
		r.Head().Seq = seq
		return *r
	})
}
