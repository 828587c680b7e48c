package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lab/internal/claudetest"
	"lab/internal/clitest"
	"lab/internal/codextest"
	"lab/internal/conv"
	"lab/internal/fakeapi"
	"lab/internal/fakeclaudeapi"
	"lab/internal/fakecodexapi"
	"lab/internal/tmux"
)

// Attachments and the usage meter end to end through `lab demo`: files
// sent through the API, handed to the real CLIs, and what the scripted
// models received; the chat's attachments and images read back from the
// transcripts; the meter against the usage the models reported.

// startLabModels is startLab with both CLIs, whose scripted models are at
// hand (labServer.claudeAPI, codexAPI).
func startLabModels(t testing.TB, flags ...string) *labServer {
	t.Helper()
	state := claudetest.ShortTempDir(t, "labsrv")
	t.Cleanup(func() { tmux.New(filepath.Join(state, "tmux.sock")).KillServer(context.Background()) })
	flags = append([]string{"--claude-bin", claudetest.CLI(t), "--codex-bin", codextest.CLI(t)}, flags...)
	l := serveLab(t, state, t.TempDir(), true, flags...)
	t.Cleanup(l.stop)
	return l
}

// testImage is a PNG of w×h with a diagonal, so its bytes are its own.
func testImage(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range min(w, h) {
		img.Set(i, i, color.RGBA{R: 250, G: uint8(i), A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// upload sends body as a file named name (to run runID, or staged when
// "") and returns the upload, or the status and error when want is not
// 201.
func (l *labServer) upload(runID, name, typ string, body []byte, want int) (conv.Upload, string) {
	l.t.Helper()
	path := "/api/v1/uploads"
	if runID != "" {
		path = "/api/v1/runs/" + runID + "/uploads"
	}
	req, _ := http.NewRequest("POST", l.base+path+"?name="+url.QueryEscape(name), bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+l.token)
	if typ != "" {
		req.Header.Set("Content-Type", typ)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		l.t.Fatalf("upload %s: %d %s; want %d", name, resp.StatusCode, raw, want)
	}
	var u conv.Upload
	if want == http.StatusCreated {
		if err := json.Unmarshal(raw, &u); err != nil {
			l.t.Fatal(err)
		}
	}
	return u, string(raw)
}

// replyWith posts a reply with uploads and wants 204.
func (l *labServer) replyWith(runID, text string, ids ...string) {
	l.t.Helper()
	var answer struct{}
	if code := l.call("POST", "/api/v1/runs/"+runID+"/reply", map[string]any{"text": text, "uploads": ids}, &answer); code != 204 {
		l.t.Fatalf("reply %q with %v: status %d\n%s", text, ids, code, l.log)
	}
}

// imageOf fetches image n of message seq of run id.
func (l *labServer) imageOf(runID string, seq, n int) (string, []byte) {
	l.t.Helper()
	req, _ := http.NewRequest("GET", l.base+"/api/v1/runs/"+runID+"/attachments/"+strconv.Itoa(seq)+"/"+strconv.Itoa(n), nil)
	req.Header.Set("Authorization", "Bearer "+l.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		l.t.Fatalf("image %d/%d of run %s: %d %s", seq, n, runID, resp.StatusCode, b)
	}
	return resp.Header.Get("Content-Type"), b
}

// userWith returns the newest user message whose text contains s.
func userWith(p conv.Page, s string) (conv.Message, bool) {
	for i := len(p.Messages) - 1; i >= 0; i-- {
		if m := p.Messages[i]; m.Kind == conv.KindText && m.Role == conv.RoleUser && strings.Contains(m.Text, s) {
			return m, true
		}
	}
	return conv.Message{}, false
}

// sameImage reports whether data is a PNG of w×h.
func sameImage(data []byte, w, h int) bool {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	return err == nil && cfg.Width == w && cfg.Height == h
}

// checkChatImage checks the chat shows the user message holding text with
// an image as its first attachment, and serves the bytes the model got.
func checkChatImage(t *testing.T, lab *labServer, runID, text string, got []byte) {
	t.Helper()
	p := lab.waitPage(runID, "the prompt "+text+" with its image", func(p conv.Page) bool {
		m, ok := userWith(p, text)
		return ok && len(m.Attachments) > 0
	})
	m, _ := userWith(p, text)
	if a := m.Attachments[0]; a.Kind != conv.AttachImage || a.MediaType != "image/png" || strings.Contains(m.Text, "[Image #") {
		t.Fatalf("message %+v; want its text without the placeholder and a PNG image attachment", m)
	}
	typ, b := lab.imageOf(runID, m.Seq, 0)
	if typ != "image/png" || !bytes.Equal(b, got) {
		t.Fatalf("the chat's image: %s, %d bytes; want image/png, the %d bytes the model received", typ, len(b), len(got))
	}
}

// TestServeAttachmentsClaude: with Claude Code, an image attached to the
// first prompt and to a reply reaches the model as an image block (not a
// path in text); a text file handed over is read by the agent; the chat
// shows both as attachments and serves the image from the transcript;
// the meter equals the usage the model reported.
func TestServeAttachmentsClaude(t *testing.T) {
	lab := startLabModels(t)
	api := lab.claudeAPI()
	wait := func(what string, match func(fakeclaudeapi.Request) bool) fakeclaudeapi.Request {
		t.Helper()
		return clitest.WaitRequest(t, &api.Base, 90*time.Second, what, match)
	}
	imageIn := func(q fakeclaudeapi.Request) []fakeclaudeapi.Block {
		for i := len(q.Messages) - 1; i >= 0; i-- {
			if q.Messages[i].Role == "user" && strings.Contains(q.Messages[i].Text(), q.Prompt) {
				return q.Messages[i].Images()
			}
		}
		return nil
	}

	// The first prompt, with an image staged before the run exists.
	first, _ := lab.upload("", "Screen Shot.png", "image/png", testImage(t, 64, 48), http.StatusCreated)
	var run conv.Run
	if code := lab.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: t.TempDir(), Prompt: "lab:text what is on the screen?", Uploads: []string{first.ID}}, &run); code != 201 {
		t.Fatalf("start: %d\n%s", code, lab.log)
	}

	if run.Title != "lab:text what is on the screen?" {
		t.Errorf("title %q; want the prompt", run.Title)
	}
	q := wait("the first prompt with its image", func(q fakeclaudeapi.Request) bool {
		return q.Scenario == "text" && strings.Contains(q.Prompt, "what is on the screen?")
	})
	imgs := imageIn(q)
	if len(imgs) != 1 || imgs[0].MediaType != "image/png" || !sameImage(imgs[0].Data, 64, 48) {
		t.Fatalf("the model received %d images (%+v) with the prompt %q; want the 64×48 PNG as an image block", len(imgs), imgs, q.Prompt)
	}
	// The typed text carries a placeholder, not the path (the CLI adds a
	// note of the image's source as a block of its own).
	for _, b := range q.Messages[len(q.Messages)-1].Blocks {
		if b.Type == "text" && strings.Contains(b.Text, "what is on the screen?") && strings.Contains(b.Text, ".png") {
			t.Fatalf("the prompt's text %q names the file; want the image as content, not a path", b.Text)
		}
	}
	checkChatImage(t, lab, run.ID, "what is on the screen?", imgs[0].Data)

	// A reply with a text file: the agent reads it.
	lab.waitPage(run.ID, "the turn's end", func(p conv.Page) bool { return p.State == conv.StateNeedsInput })
	notes, _ := lab.upload(run.ID, "notes.txt", "text/plain", []byte("lab-notes-4242\n"), http.StatusCreated)
	lab.replyWith(run.ID, "lab:read the notes", notes.ID)
	q = wait("the Read result", func(q fakeclaudeapi.Request) bool {
		for _, r := range q.ToolResults {
			if strings.Contains(r.Content, "lab-notes-4242") {
				return true
			}
		}
		return false
	})
	if len(q.ToolResults) != 1 || q.ToolResults[0].IsError {
		t.Fatalf("tool results %+v; want the file's content read without error", q.ToolResults)
	}
	p := lab.waitPage(run.ID, "the read echoed", func(p conv.Page) bool { return strings.Contains(lastAssistant(p), "lab-notes-4242") })
	if m, ok := userWith(p, "the notes"); !ok || len(m.Attachments) != 1 || m.Attachments[0].Kind != conv.AttachFile || m.Attachments[0].Name != "notes.txt" || strings.Contains(m.Text, "Attached file") {
		t.Fatalf("the prompt %+v; want its text and a file chip named notes.txt", m)
	}

	// A reply with an image.
	lab.waitPage(run.ID, "the turn's end", func(p conv.Page) bool { return p.State == conv.StateNeedsInput })
	photo, _ := lab.upload(run.ID, "photo.png", "image/png", testImage(t, 30, 20), http.StatusCreated)
	lab.replyWith(run.ID, "lab:text and this one?", photo.ID)
	q = wait("the reply with its image", func(q fakeclaudeapi.Request) bool {
		return q.Scenario == "text" && strings.Contains(q.Prompt, "and this one?")
	})
	if imgs = imageIn(q); len(imgs) != 1 || !sameImage(imgs[0].Data, 30, 20) {
		t.Fatalf("the model received %d images with the reply; want the 30×20 PNG", len(imgs))
	}
	checkChatImage(t, lab, run.ID, "and this one?", imgs[0].Data)

	// The meter: a reply the model reports a context 85% full for.
	lab.waitPage(run.ID, "the turn's end", func(p conv.Page) bool { return p.State == conv.StateNeedsInput })
	lab.reply(run.ID, "lab:full how full?")
	full := wait("the full reply", func(q fakeclaudeapi.Request) bool { return q.Scenario == "full" })
	var in int64
	for _, q := range api.Requests() {
		if q.Kind == "messages" && q.Scenario != "side" && !q.Failed {
			in += int64(q.Usage.Input)
		}
	}
	checkMeter(t, lab, run.ID, full.Usage, 1_000_000, in)
}

// checkMeter waits for the run's meter to show the usage the model
// reported for its last request, and checks the session's totals against
// every request of the conversation.
func checkMeter(t *testing.T, lab *labServer, runID string, last fakeapi.Usage, window, input int64) {
	t.Helper()
	var run conv.Run
	claudetest.Poll(t, 60*time.Second, "the meter at the full reply", func() bool {
		if code := lab.call("GET", "/api/v1/runs/"+runID, nil, &run); code != 200 {
			t.Fatalf("GET /runs/%s: %d", runID, code)
		}
		return run.Usage != nil && run.Usage.ContextTokens == int64(last.Context())
	})
	u := run.Usage
	if u.ContextWindow != window || u.Full() < conv.FullWarning || !u.Estimate || u.CostUSD <= 0 || u.PriceDate == "" {
		t.Fatalf("usage %+v; want %d tokens of a %d window (over the warning), an estimated cost with its table's date", *u, last.Context(), window)
	}
	// The page the chat reads carries the same meter.
	if p := lab.page(runID); p.Usage == nil || *p.Usage != *u {
		t.Fatalf("the page's usage %+v; want the run's %+v", p.Usage, *u)
	}
	if u.InputTokens != input {
		t.Errorf("input tokens %d; want %d, the sum the model reported over the session", u.InputTokens, input)
	}
}

// TestServeAttachmentsCodex: the same with Codex: the first prompt's image
// given with --image, a reply's attached by pasting its path, both
// reaching the model as input_image content; a text file read with a
// command; the meter against the token counts of the model's usage.
func TestServeAttachmentsCodex(t *testing.T) {
	lab := startLabModels(t)
	api := lab.codexAPI()
	wait := func(what string, match func(fakecodexapi.Request) bool) fakecodexapi.Request {
		t.Helper()
		return clitest.WaitRequest(t, &api.Base, 90*time.Second, what, match)
	}
	imagesOf := func(q fakecodexapi.Request) []fakecodexapi.Image {
		for i := len(q.Items) - 1; i >= 0; i-- {
			if it := q.Items[i]; it.Type == "message" && it.Role == "user" && strings.Contains(it.Text, q.Prompt) {
				return it.Images
			}
		}
		return nil
	}

	first, _ := lab.upload("", "Screen Shot.png", "image/png", testImage(t, 64, 48), http.StatusCreated)
	run := lab.startCodex(conv.StartRequest{Cwd: t.TempDir(), Prompt: "lab:text what is on the screen?", Uploads: []string{first.ID}})
	q := wait("the first prompt with its image", func(q fakecodexapi.Request) bool {
		return q.Kind == fakecodexapi.KindResponses && q.Scenario == "text" && strings.Contains(q.Prompt, "what is on the screen?")
	})
	imgs := imagesOf(q)
	if len(imgs) != 1 || imgs[0].MediaType != "image/png" || !sameImage(imgs[0].Data, 64, 48) {
		t.Fatalf("the model received %d images (%+v); want the 64×48 PNG as input_image content", len(imgs), imgs)
	}
	checkChatImage(t, lab, run.ID, "what is on the screen?", imgs[0].Data)

	lab.waitPage(run.ID, "the turn's end", func(p conv.Page) bool { return p.State == conv.StateNeedsInput })
	notes, _ := lab.upload(run.ID, "notes.txt", "text/plain", []byte("lab-notes-4242\n"), http.StatusCreated)
	lab.replyWith(run.ID, "lab:read the notes", notes.ID)
	wait("the command's output", func(q fakecodexapi.Request) bool {
		for _, o := range q.ToolOutputs {
			if strings.Contains(o.Output, "lab-notes-4242") {
				return true
			}
		}
		return false
	})
	p := lab.waitPage(run.ID, "the read echoed", func(p conv.Page) bool { return strings.Contains(lastAssistant(p), "lab-notes-4242") })
	if m, ok := userWith(p, "the notes"); !ok || len(m.Attachments) != 1 || m.Attachments[0].Name != "notes.txt" {
		t.Fatalf("the prompt %+v; want a file chip named notes.txt", m)
	}

	lab.waitPage(run.ID, "the turn's end", func(p conv.Page) bool { return p.State == conv.StateNeedsInput })
	photo, _ := lab.upload(run.ID, "photo.png", "image/png", testImage(t, 30, 20), http.StatusCreated)
	lab.replyWith(run.ID, "lab:text and this one?", photo.ID)
	q = wait("the reply with its image", func(q fakecodexapi.Request) bool {
		return q.Kind == fakecodexapi.KindResponses && q.Scenario == "text" && strings.Contains(q.Prompt, "and this one?")
	})
	if imgs = imagesOf(q); len(imgs) != 1 || !sameImage(imgs[0].Data, 30, 20) {
		t.Fatalf("the model received %d images with the reply; want the 30×20 PNG", len(imgs))
	}
	checkChatImage(t, lab, run.ID, "and this one?", imgs[0].Data)

	lab.waitPage(run.ID, "the turn's end", func(p conv.Page) bool { return p.State == conv.StateNeedsInput })
	lab.reply(run.ID, "lab:full how full?")
	full := wait("the full reply", func(q fakecodexapi.Request) bool { return q.Scenario == "full" })
	var in int64
	for _, q := range api.Requests() {
		if q.Kind == fakecodexapi.KindResponses {
			in += int64(q.Usage.Input)
		}
	}
	checkMeter(t, lab, run.ID, full.Usage, 258_400, in)
}
