package foldtest

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"lab/internal/agent"
	"lab/internal/conv"
)

// CheckGenerator checks a generator of large files (foldgen's users): two
// runs write the same bytes, at least size of them, as write reports; every
// line is JSON; and the file folds in f without a skipped line to dialogs,
// tools and thinking, ending in needs_input. It returns the lines for the
// caller's checks of its CLI's shapes.
func CheckGenerator(t *testing.T, size int64, write func(w io.Writer) (int64, error), f agent.Fold) [][]byte {
	t.Helper()
	var a, b bytes.Buffer
	n, err := write(&a)
	if err != nil || n != int64(a.Len()) || n < size {
		t.Fatalf("Write = %d, %v for %d buffered bytes; want at least %d and no error", n, err, a.Len(), size)
	}
	if _, err := write(&b); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("two runs with the same options differ (err %v)", err)
	}
	lines := bytes.Split(bytes.TrimSuffix(a.Bytes(), []byte("\n")), []byte("\n"))
	for _, line := range lines {
		if !json.Valid(line) {
			t.Fatalf("invalid line %.80q", line)
		}
	}
	f.Write(a.Bytes())
	msgs, _ := f.Messages(0, 0, 0)
	kinds := map[conv.Kind]int{}
	for _, m := range msgs {
		kinds[m.Kind]++
	}
	if f.SkippedLines() != 0 || kinds[conv.KindDialog] == 0 || kinds[conv.KindTool] == 0 || kinds[conv.KindThinking] == 0 || f.State() != conv.StateNeedsInput {
		t.Errorf("fold: %d skipped, kinds %v, state %s; want 0 skipped, dialogs, tools, thinking, needs_input", f.SkippedLines(), kinds, f.State())
	}
	return lines
}
