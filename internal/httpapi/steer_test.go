package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"lab/internal/conv"
)

// The fake run layer steers like the real one as far as the API can
// tell: one listed command, a dialog waiting refuses everything.

var fakeCommands = []conv.Command{
	{Name: "compact", Description: "Free up context", Source: conv.SourceBuiltin, Args: conv.ArgsOptional},
}

func (f *fakeRuns) Commands(ctx context.Context, id string) ([]conv.Command, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.get(id); err != nil {
		return nil, err
	}
	return fakeCommands, nil
}

// steer checks that run id can be steered now and notes what happened.
func (f *fakeRuns) steer(id, note string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.live(id)
	if err != nil {
		return err
	}
	if r.pending != nil {
		return conv.Errorf(conv.EConflict, "a dialog is waiting for an answer")
	}
	f.append(r, conv.Message{Kind: conv.KindLifecycle, Lifecycle: &conv.Lifecycle{Level: conv.LevelInfo, Text: note}})
	return nil
}

func (f *fakeRuns) RunCommand(ctx context.Context, id string, req conv.CommandRequest) error {
	if req.Name != "compact" {
		return conv.Errorf(conv.EInvalid, "the run's CLI offers no command /%s", req.Name)
	}
	return f.steer(id, req.Line())
}

func (f *fakeRuns) SetMode(ctx context.Context, id, mode string) error {
	return f.steer(id, "mode "+mode)
}

func (f *fakeRuns) SetModel(ctx context.Context, id, model string) error {
	return f.steer(id, "model "+model)
}

// TestSteeringEndpoints: the routes decode, validate and map the run
// layer's verdicts to statuses; a dialog waiting is 409.
func TestSteeringEndpoints(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	bearer := h.token("steer")
	cwd := t.TempDir()
	for range 2 {
		if _, err := h.runs.Start(context.Background(), conv.StartRequest{Cwd: cwd}); err != nil {
			t.Fatal(err)
		}
	}
	h.runs.ask("r2", conv.Dialog{ToolID: "toolu_1", Kind: conv.DialogQuestion, Answerable: true,
		Questions: []conv.Question{{Question: "Which?", Options: []conv.Option{{Label: "A"}, {Label: "B"}}}}})

	got := h.do(rq{method: "GET", path: "/api/v1/runs/r1/commands", bearer: bearer})
	var list CommandList
	if got.status != http.StatusOK || json.Unmarshal(got.body, &list) != nil || len(list.Commands) != 1 || list.Commands[0].Args != conv.ArgsOptional {
		t.Fatalf("commands: got %d %s; want the run's one command", got.status, got.body)
	}
	if got := h.do(rq{method: "GET", path: "/api/v1/runs/nope/commands", bearer: bearer}); got.status != http.StatusNotFound {
		t.Errorf("commands of an unknown run: got %d; want 404", got.status)
	}
	for _, tc := range []struct {
		path, body string
		status     int
		message    string
	}{
		{"/api/v1/runs/r1/command", `{"name":"compact","args":"keep the tests"}`, 204, ""},
		{"/api/v1/runs/r1/command", `{"name":"nope"}`, 400, "no command /nope"},
		{"/api/v1/runs/r1/command", `{"name":"compact","extra":1}`, 400, `unknown field "extra"`},
		{"/api/v1/runs/r2/command", `{"name":"compact"}`, 409, "dialog is waiting"},
		{"/api/v1/runs/r1/mode", `{"mode":"plan"}`, 204, ""},
		{"/api/v1/runs/r1/mode", `{}`, 400, "mode is required"},
		{"/api/v1/runs/r2/mode", `{"mode":"plan"}`, 409, "dialog is waiting"},
		{"/api/v1/runs/r1/model", `{"model":"sonnet"}`, 204, ""},
		{"/api/v1/runs/r1/model", `{"model":""}`, 400, "model is required"},
		{"/api/v1/runs/nope/model", `{"model":"sonnet"}`, 404, "no run"},
	} {
		got := h.do(rq{method: "POST", path: tc.path, body: tc.body, bearer: bearer})
		if got.status != tc.status || (tc.message != "" && !strings.Contains(got.errMsg(t), tc.message)) {
			t.Errorf("POST %s %s: got %d %s; want %d %q", tc.path, tc.body, got.status, got.body, tc.status, tc.message)
		}
	}
	var page conv.Page
	got = h.do(rq{method: "GET", path: "/api/v1/runs/r1/messages", bearer: bearer})
	if err := json.Unmarshal(got.body, &page); err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, m := range page.Messages {
		notes = append(notes, m.Lifecycle.Text)
	}
	if strings.Join(notes, "|") != "/compact keep the tests|mode plan|model sonnet" {
		t.Fatalf("the run layer got %q; want the command with its text, then the mode, then the model", notes)
	}
}
