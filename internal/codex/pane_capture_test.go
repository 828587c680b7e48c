package codex

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lab/internal/foldkit/foldtest"
)

// TestParseCapturedPanes parses every pane the real CLI drew during the
// captures (testdata/captured/*.pane.txt) and compares the screen and the
// input box found with goldens (testdata/captured-golden/*.screen.json);
// -update rewrites them.
func TestParseCapturedPanes(t *testing.T) {
	panes, _ := filepath.Glob("testdata/captured/*.pane.txt")
	if len(panes) < 15 {
		t.Fatalf("found %d captured panes; want the capture set", len(panes))
	}
	for _, p := range panes {
		name := strings.TrimSuffix(filepath.Base(p), ".pane.txt")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			box, ok := ParsePrompt(string(b))
			v := struct {
				Screen *Screen `json:"screen"`
				Prompt *string `json:"prompt"` // the input box's text; null when none shows
			}{Screen: ParseScreen(string(b))}
			if ok {
				v.Prompt = &box.Text
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(v); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "captured-golden", name+".screen.json")
			if *updateFold {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("parse of %s differs from %s:\n%s", p, golden, foldtest.FirstDiff(buf.String(), string(want)))
			}
		})
	}
}
