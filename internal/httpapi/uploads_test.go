package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lab/internal/conv"
	"lab/internal/uploads"
)

// fakeUploads keeps uploads in a real store under a temp folder, a folder
// per run of the fake run layer, and serves one image: run r1's message
// 1, attachment 0.
type fakeUploads struct {
	runs  *fakeRuns
	store *uploads.Store
	root  string
	image conv.Image
}

func (f *fakeUploads) dir(runID string) string { return filepath.Join(f.root, "runs", runID) }

func (f *fakeUploads) Put(ctx context.Context, runID, name, mediaType string, body io.Reader) (conv.Upload, error) {
	if runID == "" {
		return f.store.Stage(name, mediaType, body)
	}
	if _, err := f.runs.Get(ctx, runID); err != nil {
		return conv.Upload{}, err
	}
	return f.store.Put(f.dir(runID), name, mediaType, body)
}

func (f *fakeUploads) RunImage(ctx context.Context, runID string, seq, n int) (conv.Image, error) {
	if runID == "r1" && seq == 1 && n == 0 {
		return f.image, nil
	}
	return conv.Image{}, conv.Errorf(conv.ENotFound, "no image %d of message %d", n, seq)
}

func (f *fakeUploads) SessionImage(ctx context.Context, id string, seq, n int) (conv.Image, error) {
	return conv.Image{}, conv.Errorf(conv.ENotFound, "no session %s", id)
}

func pngOf(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// uploadHarness is the server with a real uploads store whose limit is
// max bytes, and one run (r1) started.
func uploadHarness(t *testing.T, max int64) (*harness, *fakeUploads, string) {
	t.Helper()
	up := &fakeUploads{root: t.TempDir()}
	up.store = &uploads.Store{Staging: filepath.Join(up.root, "staging"), Max: max}
	h := newHarness(t, harnessOpt{config: func(c *Config) { c.Uploads, c.MaxUploadBytes = up, max }})
	up.runs = h.runs
	bearer := h.token("uploads")
	if got := h.do(rq{method: "POST", path: "/api/v1/runs", body: `{"cwd":"` + t.TempDir() + `"}`, bearer: bearer}); got.status != http.StatusCreated {
		t.Fatalf("start: %d %s", got.status, got.body)
	}
	return h, up, bearer
}

// stored lists the files under the store's folders, names only.
func stored(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, d.Name())
		}
		return nil
	})
	return out
}

func TestUploadStoresAFile(t *testing.T) {
	h, up, bearer := uploadHarness(t, 1<<20)
	pic := pngOf(t)

	// The raw body, its name as a query parameter.
	got := h.do(rq{method: "POST", path: "/api/v1/runs/r1/uploads?name=Screen%20Shot.png", body: string(pic), bearer: bearer, header: map[string]string{"Content-Type": "image/png"}})
	var u conv.Upload
	if got.status != http.StatusCreated || json.Unmarshal(got.body, &u) != nil {
		t.Fatalf("raw upload: %d %s; want 201 with the upload", got.status, got.body)
	}
	if u.Name != "Screen-Shot.png" || u.MediaType != "image/png" || u.Size != int64(len(pic)) || !uploads.ValidID(u.ID) {
		t.Fatalf("upload %+v; want lab's name, the sniffed type, the size", u)
	}
	if strings.Contains(string(got.body), up.root) {
		t.Fatalf("the answer %s reveals where lab keeps the file", got.body)
	}
	info, err := os.Stat(filepath.Join(up.dir("r1"), u.ID+"-"+u.Name))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("stored file: %v, %v; want it under the run's folder, 0600", info, err)
	}

	// A multipart form's file part, its own type declared.
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("note", "ignored")
	fw, _ := mw.CreateFormFile("file", "notes.txt")
	fw.Write([]byte("read me\n"))
	mw.Close()
	got = h.do(rq{method: "POST", path: "/api/v1/runs/r1/uploads", body: body.String(), bearer: bearer, header: map[string]string{"Content-Type": mw.FormDataContentType()}})
	if got.status != http.StatusCreated || json.Unmarshal(got.body, &u) != nil || u.Name != "notes.txt" || u.MediaType != "text/plain" {
		t.Fatalf("multipart upload: %d %s; want notes.txt, text/plain", got.status, got.body)
	}

	// Staged for a run about to start.
	got = h.do(rq{method: "POST", path: "/api/v1/uploads?name=a.png", body: string(pic), bearer: bearer})
	if got.status != http.StatusCreated || json.Unmarshal(got.body, &u) != nil || u.MediaType != "image/png" {
		t.Fatalf("staged upload: %d %s", got.status, got.body)
	}
	if _, err := os.Stat(filepath.Join(up.root, "staging", u.ID+"-a.png")); err != nil {
		t.Fatalf("staged file: %v", err)
	}
}

func TestUploadRefusalsKeepNothing(t *testing.T) {
	h, up, bearer := uploadHarness(t, 1024)
	big := strings.Repeat("x", 1025)
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, _ := mw.CreateFormFile("file", "big.txt")
	fw.Write([]byte(strings.Repeat("y", 4096)))
	mw.Close()
	for _, c := range []struct {
		name, path, body string
		header           map[string]string
		status           int
		msg              string
	}{
		{"over the limit", "/api/v1/runs/r1/uploads?name=big.txt", big, nil, http.StatusRequestEntityTooLarge, "larger than 1 KiB"},
		{"over the limit, staged", "/api/v1/uploads?name=big.txt", big, nil, http.StatusRequestEntityTooLarge, "larger than 1 KiB"},
		{"over the limit in a form", "/api/v1/runs/r1/uploads", form.String(), map[string]string{"Content-Type": mw.FormDataContentType()}, http.StatusRequestEntityTooLarge, "larger than 1 KiB"},
		{"a disguised image", "/api/v1/runs/r1/uploads?name=shot.png", "this is no PNG", map[string]string{"Content-Type": "image/png"}, http.StatusBadRequest, "declared image/png, but its bytes are text/plain"},
		{"an image name on text", "/api/v1/runs/r1/uploads?name=shot.jpeg", "this is no JPEG", nil, http.StatusBadRequest, "declared an image"},
		{"an empty file", "/api/v1/runs/r1/uploads?name=empty.txt", "", nil, http.StatusBadRequest, "empty"},
		{"a form without a file", "/api/v1/runs/r1/uploads", "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n--b--\r\n", map[string]string{"Content-Type": "multipart/form-data; boundary=b"}, http.StatusBadRequest, "holds no file"},
		{"an unknown run", "/api/v1/runs/nope/uploads?name=a.txt", "hello", nil, http.StatusNotFound, "no run"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := h.do(rq{method: "POST", path: c.path, body: c.body, bearer: bearer, header: c.header})
			if got.status != c.status || !strings.Contains(got.errMsg(t), c.msg) {
				t.Fatalf("got %d %s; want %d saying %q", got.status, got.body, c.status, c.msg)
			}
			if files := stored(t, up.root); len(files) != 0 {
				t.Fatalf("refused, yet the store holds %v", files)
			}
		})
	}
}

func TestReplyAndStartTakeUploads(t *testing.T) {
	h, _, bearer := uploadHarness(t, 1<<20)
	got := h.do(rq{method: "POST", path: "/api/v1/runs/r1/reply", body: `{"uploads":["0123456789abcdef"]}`, bearer: bearer})
	if got.status != http.StatusNoContent {
		t.Fatalf("a reply of uploads alone: %d %s; want 204", got.status, got.body)
	}
	page, _ := h.runs.Messages(context.Background(), "r1", conv.Query{Limit: 100})
	last := page.Messages[len(page.Messages)-1]
	if len(last.Attachments) != 1 || last.Attachments[0].Name != "0123456789abcdef" {
		t.Fatalf("the run layer got %+v; want the upload passed on", last)
	}
	for _, body := range []string{`{"text":" "}`, `{"text":"hi","uploads":["0123456789abcdef","0123456789abcdef"]}`} {
		if got := h.do(rq{method: "POST", path: "/api/v1/runs/r1/reply", body: body, bearer: bearer}); got.status != http.StatusBadRequest {
			t.Errorf("reply %s: %d %s; want 400", body, got.status, got.body)
		}
	}
	ids := make([]string, maxUploadsPerPrompt+1)
	for i := range ids {
		ids[i] = strings.Repeat("a", 15) + string(rune('a'+i%6)) // the count fails first
	}
	b, _ := json.Marshal(map[string]any{"cwd": t.TempDir(), "uploads": ids})
	if got := h.do(rq{method: "POST", path: "/api/v1/runs", body: string(b), bearer: bearer}); got.status != http.StatusBadRequest || !strings.Contains(got.errMsg(t), "at most") {
		t.Errorf("a start with %d uploads: %d %s; want 400", len(ids), got.status, got.body)
	}
}

func TestImageEndpoint(t *testing.T) {
	h, up, bearer := uploadHarness(t, 1<<20)
	up.image = conv.Image{MediaType: "image/png", Data: pngOf(t)}
	got := h.do(rq{method: "GET", path: "/api/v1/runs/r1/attachments/1/0", bearer: bearer})
	if got.status != http.StatusOK || !bytes.Equal(got.body, up.image.Data) || got.header.Get("Content-Type") != "image/png" {
		t.Fatalf("image: %d %s (%d bytes); want 200 image/png with the bytes", got.status, got.header.Get("Content-Type"), len(got.body))
	}
	if csp := got.header.Get("Content-Security-Policy"); !strings.Contains(csp, "sandbox") || got.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("headers %v; want a sandboxing CSP and nosniff", got.header)
	}
	for path, status := range map[string]int{
		"/api/v1/runs/r1/attachments/1/1":     http.StatusNotFound,
		"/api/v1/runs/r1/attachments/0/0":     http.StatusBadRequest,
		"/api/v1/runs/r1/attachments/x/0":     http.StatusBadRequest,
		"/api/v1/runs/r1/attachments/1/-1":    http.StatusBadRequest,
		"/api/v1/sessions/s9/attachments/1/0": http.StatusNotFound,
	} {
		if got := h.do(rq{method: "GET", path: path, bearer: bearer}); got.status != status {
			t.Errorf("GET %s: %d %s; want %d", path, got.status, got.body, status)
		}
	}
	// Like every API path, it needs a login.
	if got := h.do(rq{method: "GET", path: "/api/v1/runs/r1/attachments/1/0"}); got.status != http.StatusUnauthorized {
		t.Errorf("without credentials: %d; want 401", got.status)
	}
}

func TestGetRun(t *testing.T) {
	h, _, bearer := uploadHarness(t, 1<<20)
	got := h.do(rq{method: "GET", path: "/api/v1/runs/r1", bearer: bearer})
	var run conv.Run
	if got.status != http.StatusOK || json.Unmarshal(got.body, &run) != nil || run.ID != "r1" {
		t.Fatalf("GET /runs/r1: %d %s", got.status, got.body)
	}
	if got := h.do(rq{method: "GET", path: "/api/v1/runs/nope", bearer: bearer}); got.status != http.StatusNotFound {
		t.Fatalf("an unknown run: %d; want 404", got.status)
	}
}
