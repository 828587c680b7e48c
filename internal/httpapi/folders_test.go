package httpapi

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lab/internal/conv"
)

func TestFolderPicker(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	bearer := h.token("folders")
	os.MkdirAll(filepath.Join(h.folderRoot, "proj", ".git"), 0o755)
	os.MkdirAll(filepath.Join(h.folderRoot, "plain"), 0o755)
	os.WriteFile(filepath.Join(h.folderRoot, "pfile"), nil, 0o644)

	got := h.do(rq{method: "GET", path: "/api/v1/folders?q=" + "~/p", bearer: bearer})
	var list conv.FolderList
	if got.status != http.StatusOK || json.Unmarshal(got.body, &list) != nil {
		t.Fatalf("got %d %s; want 200 with a folder list", got.status, got.body)
	}
	root, _ := filepath.EvalSymlinks(h.folderRoot)
	if len(list.Folders) != 2 || !strings.HasSuffix(list.Folders[0].Path, "/proj") || !list.Folders[0].Git || !strings.HasSuffix(list.Folders[1].Path, "/plain") {
		t.Fatalf("got %+v; want proj (git) then plain, no file", list.Folders)
	}
	if len(list.Roots) != 1 || (list.Roots[0] != h.folderRoot && list.Roots[0] != root) {
		t.Fatalf("got roots %v; want the harness root", list.Roots)
	}
	for _, q := range []string{"~/..", "~/proj/../../etc"} {
		got := h.do(rq{method: "GET", path: "/api/v1/folders?q=" + q, bearer: bearer})
		if got.status != http.StatusBadRequest || !strings.Contains(got.errMsg(t), `".."`) {
			t.Errorf("q=%s: got %d %s; want 400 about ..", q, got.status, got.body)
		}
	}
	if got := h.do(rq{method: "GET", path: "/api/v1/folders?limit=x", bearer: bearer}); got.status != http.StatusBadRequest {
		t.Errorf("limit=x: got %d; want 400", got.status)
	}
}
