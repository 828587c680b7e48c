package claude

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"lab/internal/conv"
)

// updateFlag is the flag that rewrites the fold goldens; failure messages
// name it from here so they cannot drift from the flag.
const updateFlag = "update"

var updateFold = flag.Bool(updateFlag, false, "rewrite the golden files from the current fold")

// foldSnapshot is what `lab fold` prints; goldens hold it.
type foldSnapshot struct {
	State         conv.State     `json:"state"`
	PendingDialog *conv.Dialog   `json:"pending_dialog"`
	Messages      []conv.Message `json:"messages"`
	SkippedLines  int            `json:"skipped_lines"`
}

func foldSnapshotOf(f *Fold) foldSnapshot {
	msgs, _ := f.Messages(0, 0, 0)
	return foldSnapshot{State: f.State(), PendingDialog: f.PendingDialog(), Messages: msgs, SkippedLines: f.SkippedLines()}
}

// foldSnapshotJSON encodes like `lab fold` does.
func foldSnapshotJSON(t testing.TB, s foldSnapshot) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func foldAll(b []byte) *Fold {
	f := NewFold()
	f.Write(b)
	return f
}

// foldFixture is one transcript with its golden file.
type foldFixture struct {
	name, path, golden string
}

// foldFixtures lists the hand-written transcripts and the real CLI captures
// of every fixture set (captured/, filled by claudetest's capture
// generator), each with its golden.
func foldFixtures(t testing.TB) []foldFixture {
	t.Helper()
	var out []foldFixture
	sets := []struct{ glob, goldenDir string }{{"testdata/fold/*.jsonl", "testdata/fold"}}
	for _, fs := range fixtureSets {
		sets = append(sets, struct{ glob, goldenDir string }{fs.path("captured", "*.jsonl"), fs.path("captured-golden")})
	}
	for _, set := range sets {
		paths, err := filepath.Glob(set.glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if strings.HasSuffix(p, ".hooks.jsonl") {
				continue // hook event logs captured beside the transcript
			}
			name := strings.TrimSuffix(filepath.Base(p), ".jsonl")
			out = append(out, foldFixture{
				name:   filepath.ToSlash(filepath.Dir(p)) + "/" + name,
				path:   p,
				golden: filepath.Join(set.goldenDir, name+".golden.json"),
			})
		}
	}
	if len(out) < 10 {
		t.Fatalf("found %d foldFixtures; want the hand-written set at least", len(out))
	}
	return out
}

func readFoldFixture(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFoldGolden(t *testing.T) {
	for _, fx := range foldFixtures(t) {
		t.Run(fx.name, func(t *testing.T) {
			got := foldSnapshotJSON(t, foldSnapshotOf(foldAll(readFoldFixture(t, fx.path))))
			if *updateFold {
				if err := os.MkdirAll(filepath.Dir(fx.golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(fx.golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(fx.golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestFoldGolden -%s to create it)", err, updateFlag)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("fold of %s differs from %s (rerun with -%s after checking the change):\n%s",
					fx.path, fx.golden, updateFlag, foldFirstDiff(string(got), string(want)))
			}
		})
	}
}

// foldFirstDiff shows the first differing line of two texts.
func foldFirstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + gl + "\n want " + wl
		}
	}
	return "(no line differs)"
}
