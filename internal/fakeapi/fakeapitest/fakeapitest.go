// Package fakeapitest is the test support both scripted APIs' tests share
// (internal/fakeclaudeapi, internal/fakecodexapi): posting a body, reading
// a server-sent event stream event by event, a slow stream's end when the
// client leaves, and the scenario table's keywords. Each API's tests keep
// what its wire format means.
//
// Only tests import it.
package fakeapitest

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"lab/internal/fakeapi"
)

// Post posts body as JSON to url and returns the response.
func Post(t testing.TB, url string, body any) *http.Response {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(url, "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// Events reads a server-sent event stream to its end (and closes it),
// giving each event's name and decoded data to event; every event's data
// must carry its name as its type, and the stream must be text/event-stream.
func Events(t testing.TB, resp *http.Response, event func(name string, data map[string]any)) {
	t.Helper()
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("got Content-Type %q; want text/event-stream", ct)
	}
	var name string
	var data map[string]any
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = nil
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &data); err != nil {
				t.Fatalf("bad data line %q: %v", line, err)
			}
		case line == "":
			if data["type"] != name {
				t.Fatalf("event %q carries type %v; want the same", name, data["type"])
			}
			event(name, data)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// SlowStreamStops posts body (a prompt of the slow scenario) to path on h
// served over HTTP, reads a few delta events (named delta) to prove they
// trickle in, hangs up, and checks the handler returns soon after (the
// server's Close would block on it otherwise).
func SlowStreamStops(t *testing.T, h http.Handler, path string, body any, delta string) {
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+path, strings.NewReader(string(b)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(resp.Body)
	for deltas := 0; deltas < 3; {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(line, "event: "+delta) {
			deltas++
		}
	}
	cancel()
	resp.Body.Close()
	done := make(chan struct{})
	go func() { srv.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("slow stream kept running after the client left")
	}
}

// ScenariosReachable checks a scenario table's infos: each keyword is
// lab:<name> with a summary, unique, and a prompt with it picks its
// scenario (pick returns the picked scenario's name).
func ScenariosReachable(t *testing.T, infos []fakeapi.ScenarioInfo, pick func(prompt string) string) {
	seen := map[string]bool{}
	for _, si := range infos {
		if si.Keyword != fakeapi.KeywordPrefix+si.Name || si.Summary == "" {
			t.Errorf("scenario %+v: want keyword lab:<name> and a summary", si)
		}
		if got := pick("please " + si.Keyword + "."); got != si.Name {
			t.Errorf("prompt with %s picked %s; want %s", si.Keyword, got, si.Name)
		}
		if seen[si.Keyword] {
			t.Errorf("duplicate keyword %s", si.Keyword)
		}
		seen[si.Keyword] = true
	}
}
