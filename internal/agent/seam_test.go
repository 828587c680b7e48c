package agent

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// adapters are the packages that know one CLI; only cmd/lab (the wiring)
// and tests may import them.
var adapters = []string{"lab/internal/claude", "lab/internal/codex"}

// neutral are the layers above the seam.
var neutral = []string{"agent", "conv", "chat", "runs", "httpapi", "store", "webui", "tmux", "peer"}

// The provider-neutral layers reach a CLI only through this package, so a
// second provider plugs in without touching them.
func TestNeutralLayersImportNoAdapter(t *testing.T) {
	for _, pkg := range neutral {
		dir := filepath.Join("..", pkg)
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files in %s (%v)", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range parsed.Imports {
				path := strings.Trim(imp.Path.Value, `"`)
				for _, a := range adapters {
					if path == a || strings.HasPrefix(path, a+"/") {
						t.Errorf("%s imports %s; the neutral layers reach a CLI only through internal/agent", f, path)
					}
				}
			}
		}
	}
}
