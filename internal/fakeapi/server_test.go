package fakeapi

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

type req struct {
	seq  int
	path string
}

// recording is a fake API whose every request is recorded.
type recording struct {
	Base[req]
}

func (s *recording) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.Record(func(seq int) req { return req{seq, r.URL.Path} })
	io.WriteString(w, s.ID("id_"))
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func TestBaseServesRecordsAndWaits(t *testing.T) {
	s := &recording{NewBase[req]("fakeapi-test", Options{})}
	if s.URL() != "" {
		t.Fatalf("URL %q before serving; want none", s.URL())
	}
	if err := s.Listen("127.0.0.1:0", s); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") {
		t.Fatalf("got URL %q; want http://127.0.0.1:port", s.URL())
	}
	if err := s.Listen("127.0.0.1:0", s); err == nil || !strings.Contains(err.Error(), "fakeapi-test: already serving") {
		t.Errorf("a second Listen: %v; want an error", err)
	}
	id1, id2 := get(t, s.URL()+"/first"), get(t, s.URL()+"/second")
	if !strings.HasPrefix(id1, "id_01") || len(id1) != len("id_")+24 || id1 == id2 {
		t.Errorf("ids %q, %q; want distinct id_ and 24 alphanumerics", id1, id2)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := s.Wait(ctx, func(r req) bool { return r.path == "/second" })
	if err != nil || r.seq != 2 {
		t.Fatalf("got %+v, %v; want the second request, already received", r, err)
	}
	waited := make(chan req, 1)
	go func() {
		r, _ := s.Wait(ctx, func(r req) bool { return r.path == "/third" })
		waited <- r
	}()
	get(t, s.URL()+"/third")
	if got := <-waited; got.seq != 3 {
		t.Fatalf("got %+v; want the third request, received after the call", got)
	}
	short, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	if _, err := s.Wait(short, func(req) bool { return false }); err == nil || !strings.Contains(err.Error(), "fakeapi-test: no matching request") {
		t.Fatalf("got %v for an impossible predicate; want a timeout error", err)
	}
	if got := s.Requests(); len(got) != 3 || got[0].path != "/first" {
		t.Errorf("Requests = %+v; want the three in order", got)
	}
}
