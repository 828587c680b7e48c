package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"lab/internal/conv"
)

func TestArchiveAndStopIdle(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	bearer := h.token("housekeeping")
	cwd := t.TempDir()
	post := func(path, body string) resp {
		t.Helper()
		return h.do(rq{method: "POST", path: path, body: body, bearer: bearer})
	}
	list := func(q string) []string {
		t.Helper()
		got := h.do(rq{method: "GET", path: "/api/v1/runs" + q, bearer: bearer})
		var l RunList
		if got.status != http.StatusOK || json.Unmarshal(got.body, &l) != nil {
			t.Fatalf("GET /runs%s: got %d %s", q, got.status, got.body)
		}
		var ids []string
		for _, r := range l.Runs {
			ids = append(ids, r.ID)
		}
		return ids
	}
	for range 2 {
		if got := post("/api/v1/runs", `{"cwd":"`+cwd+`"}`); got.status != http.StatusCreated {
			t.Fatalf("start: %d %s", got.status, got.body)
		}
	}
	post("/api/v1/runs", `{"cwd":"`+cwd+`","prompt":"busy"}`) // r3 works

	got := post("/api/v1/runs/stop-idle", `{"ids":["r1","r3","r1"]}`)
	var res conv.BulkResult
	if got.status != http.StatusOK || json.Unmarshal(got.body, &res) != nil || len(res.Done) != 1 || res.Done[0] != "r1" || len(res.Skipped) != 1 || res.Skipped[0].ID != "r3" {
		t.Fatalf("stop-idle: got %d %s; want r1 stopped (once), r3 skipped", got.status, got.body)
	}
	got = post("/api/v1/runs/archive", `{"ids":["r1","r2"]}`)
	if json.Unmarshal(got.body, &res) != nil || len(res.Done) != 1 || res.Skipped[0].ID != "r2" {
		t.Fatalf("archive: got %d %s; want r1 archived, live r2 skipped", got.status, got.body)
	}
	if l := list(""); strings.Join(l, ",") != "r3,r2" {
		t.Fatalf("default list: got %v; want the archived run hidden", l)
	}
	if l := list("?archived=true"); strings.Join(l, ",") != "r1" {
		t.Fatalf("archived list: got %v; want r1", l)
	}
	post("/api/v1/runs/unarchive", `{"ids":["r1"]}`)
	if l := list(""); len(l) != 3 {
		t.Fatalf("after unarchive: got %v", l)
	}
	for _, c := range []struct{ path, body, msg string }{
		{"/api/v1/runs/archive", `{}`, "ids is required"},
		{"/api/v1/runs/archive", `{"ids":[""]}`, "ids[0] is empty"},
		{"/api/v1/runs/stop-idle", `{"ids":"r1"}`, `field "ids"`},
		{"/api/v1/runs/stop-idle", `{"ids":["` + strings.Repeat(`r","`, maxBulk) + `r"]}`, "at most"},
	} {
		got := post(c.path, c.body)
		if got.status != http.StatusBadRequest || !strings.Contains(got.errMsg(t), c.msg) {
			t.Errorf("%s %.40s: got %d %s; want 400 about %q", c.path, c.body, got.status, got.body, c.msg)
		}
	}
	if got := h.do(rq{method: "GET", path: "/api/v1/runs?archived=maybe", bearer: bearer}); got.status != http.StatusBadRequest {
		t.Errorf("archived=maybe: got %d; want 400", got.status)
	}
}
