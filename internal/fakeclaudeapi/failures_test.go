package fakeclaudeapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestFailureScenarios(t *testing.T) {
	srv := httptest.NewServer(New(Options{}))
	defer srv.Close()
	errorOf := func(resp *http.Response) (int, string) {
		defer resp.Body.Close()
		var b struct {
			Type  string
			Error struct{ Type, Message string }
		}
		json.NewDecoder(resp.Body).Decode(&b)
		return resp.StatusCode, b.Error.Type
	}
	for _, tc := range []struct {
		prompt, errType string
		status          int
	}{
		{"lab:overloaded go", "overloaded_error", 529},
		{"lab:apierror go", "api_error", 500},
	} {
		for range 3 { // every attempt fails
			st, typ := errorOf(post(t, srv.URL, body(userText(tc.prompt))))
			if st != tc.status || typ != tc.errType {
				t.Fatalf("%s: got %d %s; want %d %s", tc.prompt, st, typ, tc.status, tc.errType)
			}
		}
	}

	// Flaky fails twice for a prompt, then answers.
	for i := range 2 {
		if st, typ := errorOf(post(t, srv.URL, body(userText("lab:flaky go")))); st != 529 || typ != "overloaded_error" {
			t.Fatalf("flaky attempt %d: got %d %s; want 529", i+1, st, typ)
		}
	}
	r := readStream(t, post(t, srv.URL, body(userText("lab:flaky go"))))
	if r.stop != "end_turn" || len(r.blocks) != 1 || r.blocks[0]["type"] != "text" {
		t.Fatalf("flaky third attempt: got %+v; want a text reply", r)
	}

	// Hangup closes the connection without an answer.
	resp, err := http.Post(srv.URL+"/v1/messages", "application/json", jsonBody(t, body(userText("lab:hangup go"))))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("hangup: got %d; want the connection closed", resp.StatusCode)
	}
}

func jsonBody(t *testing.T, v any) *bytes.Reader {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(b)
}
