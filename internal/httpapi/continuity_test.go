package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"lab/internal/conv"
)

func TestAttachAndResume(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	bearer := h.token("continuity")
	post := func(path, body string) resp {
		t.Helper()
		return h.do(rq{method: "POST", path: path, body: body, bearer: bearer})
	}
	got := h.do(rq{method: "GET", path: "/api/v1/external-sessions", bearer: bearer})
	var ext ExternalList
	if got.status != http.StatusOK || json.Unmarshal(got.body, &ext) != nil || len(ext.Sessions) != 1 || ext.Sessions[0].Tmux.Pane != "%3" {
		t.Fatalf("external sessions: got %d %s", got.status, got.body)
	}
	for _, c := range []struct {
		body   string
		status int
		msg    string
	}{
		{`{}`, 400, "pid is required"},
		{`{"pid":-1}`, 400, "pid is required"},
		{`{"pid":"x"}`, 400, `field "pid"`},
		{`{"pid":7}`, 404, "no process 7"},
	} {
		got := post("/api/v1/runs/attach", c.body)
		if got.status != c.status || !strings.Contains(got.errMsg(t), c.msg) {
			t.Errorf("attach %s: got %d %s; want %d about %q", c.body, got.status, got.body, c.status, c.msg)
		}
	}
	got = post("/api/v1/runs/attach", `{"pid":4242}`)
	var run conv.Run
	if got.status != http.StatusCreated || json.Unmarshal(got.body, &run) != nil || run.Attached == nil || run.Attached.PID != 4242 {
		t.Fatalf("attach: got %d %s; want 201 with the attachment", got.status, got.body)
	}
	if got := post("/api/v1/runs/attach", `{"pid":4242}`); got.status != http.StatusConflict || !strings.Contains(got.errMsg(t), run.ID) {
		t.Fatalf("attaching twice: got %d %s; want 409 naming %s", got.status, got.body, run.ID)
	}
	if got := post("/api/v1/runs/"+run.ID+"/resume", ""); got.status != http.StatusConflict {
		t.Fatalf("resuming a live run: got %d; want 409", got.status)
	}
	post("/api/v1/runs/"+run.ID+"/stop", "")
	got = post("/api/v1/runs/"+run.ID+"/resume", "")
	var resumed conv.Run
	if got.status != http.StatusCreated || json.Unmarshal(got.body, &resumed) != nil || resumed.ID == run.ID {
		t.Fatalf("resume: got %d %s; want 201 with a new run", got.status, got.body)
	}
	if got := post("/api/v1/sessions/nope/resume", ""); got.status != http.StatusNotFound {
		t.Fatalf("resuming an unknown session: got %d; want 404", got.status)
	}
}
