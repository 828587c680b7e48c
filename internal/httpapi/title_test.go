package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"lab/internal/conv"
)

func TestStartRunTitleIsBounded(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	secret := h.token("script")
	cwd := t.TempDir()
	start := func(title string) resp {
		b, _ := json.Marshal(conv.StartRequest{Cwd: cwd, Title: title})
		return h.do(rq{method: "POST", path: "/api/v1/runs", body: string(b), bearer: secret})
	}
	longest := strings.Repeat("é", MaxTitleRunes) // 200 characters, 400 bytes
	got := start(longest)
	var run conv.Run
	json.Unmarshal(got.body, &run)
	if got.status != http.StatusCreated || run.Title != longest {
		t.Fatalf("a %d-character title: got %d, title %q; want 201 and the title whole", MaxTitleRunes, got.status, run.Title)
	}
	for _, tc := range []struct {
		name, title, want string
	}{
		{"one character too many", longest + "e", "title is 201 characters long; at most 200 are allowed"},
		{"100 KB", strings.Repeat("x", 100_000), "title is 100000 characters long; at most 200 are allowed"},
		{"two lines", "fix\nthe bug", "title contains a control character (U+000A); it must be one line"},
		{"NUL", "fix\x00", "title contains a control character (U+0000); it must be one line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := start(tc.title)
			if got.status != http.StatusBadRequest {
				t.Fatalf("got %d %.200s; want 400", got.status, got.body)
			}
			if msg := got.errMsg(t); msg != tc.want {
				t.Fatalf("message %q; want %q", msg, tc.want)
			}
		})
	}
	var list RunList
	json.Unmarshal(h.do(rq{method: "GET", path: "/api/v1/runs", bearer: secret}).body, &list)
	if len(list.Runs) != 1 {
		t.Fatalf("%d runs after the refusals; want only the first", len(list.Runs))
	}
}
