package transcriptgen_test

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"lab/internal/claude"
	"lab/internal/claude/transcriptgen"
	"lab/internal/foldkit/foldgen"
	"lab/internal/foldkit/foldtest"
)

func TestWriteShapes(t *testing.T) {
	opt := transcriptgen.Options{Options: foldgen.Options{Size: 4 << 20, Seed: 7, MaxOutput: 200 << 10}, HugeBlobs: 1, HugeBlobBytes: 1 << 20}
	lines := foldtest.CheckGenerator(t, opt.Size, func(w io.Writer) (int64, error) { return transcriptgen.Write(w, opt) }, claude.NewFold())
	types := map[string]int{}
	hugeBlobs := 0
	for _, line := range lines {
		var v struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("invalid line %.80q: %v", line, err)
		}
		types[v.Type]++
		switch v.Type {
		case "user", "assistant", "system", "attachment":
		default:
			if !bytes.HasPrefix(line, []byte(`{"type":"`+v.Type+`"`)) {
				t.Errorf("bookkeeping line %.60q does not start with its type", line)
			}
		}
		if v.Type == "api-request-blob" && len(line) > opt.HugeBlobBytes {
			hugeBlobs++
		}
	}
	for _, typ := range []string{"user", "assistant", "system", "attachment", "api-request-blob", "api-request", "mode", "file-history-snapshot"} {
		if types[typ] == 0 {
			t.Errorf("no %s line", typ)
		}
	}
	if hugeBlobs != 1 {
		t.Errorf("%d huge blobs; want 1", hugeBlobs)
	}
}
