// Command normfixtures writes a normalised copy of a fixture set (its
// captured/, hooks/ and panes/ folders) for `make drift` to diff, with the
// pane parser's reading of each pane beside it:
//
//	normfixtures -version 2.1.331 -in /tmp/capture -out /tmp/a
//	normfixtures -set 2.1.332 -out /tmp/b   # a committed set, from the module root
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"lab/internal/claude"
	"lab/internal/claudetest"
	"lab/internal/claudetest/drift"
)

func main() {
	version := flag.String("version", "", "the CLI version the set was captured with")
	in := flag.String("in", "", "the fixture set folder")
	set := flag.String("set", "", "a committed fixture set by version, instead of -in and -version")
	out := flag.String("out", "", "where to write the normalised copy")
	flag.Parse()
	if *set != "" {
		if !slices.Contains(claudetest.FixtureVersions, *set) {
			fail(fmt.Errorf("no committed fixture set for %s; there are sets for %s", *set, strings.Join(claudetest.FixtureVersions, ", ")))
		}
		*in, *version = claudetest.FixtureDir(*set), *set
	}
	if *in == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: normfixtures (-set V | -version V -in DIR) -out DIR")
		os.Exit(2)
	}
	n, err := normalizeSet(*version, *in, *out)
	if err != nil {
		fail(err)
	}
	if n == 0 {
		fail(fmt.Errorf("no captured fixtures under %s", *in))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "normfixtures:", err)
	os.Exit(1)
}

// normalizeSet copies the captures of one set, normalised, and returns how
// many it read. Each pane of panes/ also gets <name>.parsed.json, what
// lab's pane parsers read on it, so a diff shows whether lab still
// understands a changed screen. Parser goldens (panes/*.json) and READMEs
// are not captures and are left out.
func normalizeSet(version, in, out string) (int, error) {
	count := 0
	for _, sub := range []string{"captured", "hooks", "panes"} {
		ents, err := os.ReadDir(filepath.Join(in, sub))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return count, err
		}
		if err := os.MkdirAll(filepath.Join(out, sub), 0o755); err != nil {
			return count, err
		}
		for _, e := range ents {
			name := e.Name()
			var conv func(*drift.Normalizer, []byte) []byte
			switch {
			case e.IsDir():
				continue
			case strings.HasSuffix(name, ".txt"):
				conv = (*drift.Normalizer).Pane
			case sub != "panes" && (strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".json")):
				conv = (*drift.Normalizer).JSONLines
			default:
				continue
			}
			b, err := os.ReadFile(filepath.Join(in, sub, name))
			if err != nil {
				return count, err
			}
			if err := os.WriteFile(filepath.Join(out, sub, name), conv(drift.NewNormalizer(version), b), 0o644); err != nil {
				return count, err
			}
			count++
			if sub == "panes" {
				parsed, err := json.MarshalIndent(readPane(string(b)), "", "  ")
				if err != nil {
					return count, err
				}
				dst := filepath.Join(out, sub, strings.TrimSuffix(name, ".txt")+".parsed.json")
				if err := os.WriteFile(dst, append(parsed, '\n'), 0o644); err != nil {
					return count, err
				}
			}
		}
	}
	return count, nil
}

// paneReading is what lab reads on a pane: the picker, and the input box
// when one has the focus.
type paneReading struct {
	Screen *claude.Screen `json:"screen"`
	Prompt *string        `json:"prompt_box"`
}

func readPane(pane string) paneReading {
	r := paneReading{Screen: claude.ParseScreen(pane)}
	if box, ok := claude.ParsePrompt(pane); ok {
		r.Prompt = &box.Text
	}
	return r
}
