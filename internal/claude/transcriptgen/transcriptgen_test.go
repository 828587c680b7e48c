package transcriptgen_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"lab/internal/claude"
	"lab/internal/claude/transcriptgen"
	"lab/internal/conv"
)

func TestWriteShapes(t *testing.T) {
	opt := transcriptgen.Options{Size: 4 << 20, Seed: 7, HugeBlobs: 1, HugeBlobBytes: 1 << 20, MaxOutput: 200 << 10}
	var a, b bytes.Buffer
	n, err := transcriptgen.Write(&a, opt)
	if err != nil || n != int64(a.Len()) || n < opt.Size {
		t.Fatalf("Write = %d, %v for %d buffered bytes; want at least %d and no error", n, err, a.Len(), opt.Size)
	}
	if _, err := transcriptgen.Write(&b, opt); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("two runs with the same options differ (err %v)", err)
	}

	types := map[string]int{}
	hugeBlobs := 0
	for _, line := range bytes.Split(bytes.TrimSuffix(a.Bytes(), []byte("\n")), []byte("\n")) {
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

	f := claude.NewFold()
	f.Write(a.Bytes())
	msgs, _ := f.Messages(0, 0, 0)
	kinds := map[conv.Kind]int{}
	for _, m := range msgs {
		kinds[m.Kind]++
	}
	if f.SkippedLines() != 0 || kinds[conv.KindDialog] == 0 || kinds[conv.KindTool] == 0 || kinds[conv.KindThinking] == 0 || f.State() != conv.StateNeedsInput {
		t.Errorf("fold: %d skipped, kinds %v, state %s; want 0 skipped, dialogs, tools, thinking, needs_input", f.SkippedLines(), kinds, f.State())
	}
}
