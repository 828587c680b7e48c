package fakeapi

import (
	"fmt"
	"regexp"
	"strings"
)

// KeywordPrefix starts a scenario's keyword: "lab:<name>" in a prompt
// picks scenario <name>.
const KeywordPrefix = "lab:"

// ScenarioInfo describes one scripted scenario for docs and the demo. A
// prompt containing Keyword picks the scenario; a prompt with no keyword
// gets the first of its table (the "text" scenario). A fake API's
// scenario type embeds it.
type ScenarioInfo struct {
	Name    string
	Keyword string
	Summary string
	// Mode is the mode the scenario needs to behave as described (Claude
	// Code's --permission-mode, Codex's collaboration mode), "" when any
	// works.
	Mode string
}

// Info describes scenario name, whose keyword is KeywordPrefix+name.
func Info(name, summary, mode string) ScenarioInfo {
	return ScenarioInfo{Name: name, Keyword: KeywordPrefix + name, Summary: summary, Mode: mode}
}

// Info returns the info itself (a scenario type gets it by embedding).
func (i *ScenarioInfo) Info() *ScenarioInfo { return i }

// Described is a pointer to a scenario type that embeds ScenarioInfo.
type Described[S any] interface {
	*S
	Info() *ScenarioInfo
}

// Infos lists the infos of a scenario table, in its order.
func Infos[S any, P Described[S]](table []S) []ScenarioInfo {
	out := make([]ScenarioInfo, len(table))
	for i := range table {
		out[i] = *P(&table[i]).Info()
	}
	return out
}

// Pick returns the scenario of table whose keyword the prompt contains
// as a whole word, the longest keyword winning, else the first.
func Pick[S any, P Described[S]](prompt string, table []S) *S {
	return &table[PickScenario(prompt, table, func(s *S) string { return P(s).Info().Keyword })]
}

// AttachedFileRE finds the file lab hands an agent with a prompt: a line
// "[Attached file: /path]" (conv.WithFileRefs); the read scenarios read
// it.
var AttachedFileRE = regexp.MustCompile(`(?m)^\[Attached file: (/[^\]\n]+)\]$`)

// AttachedFile returns the first file the prompt hands over, "" if none.
func AttachedFile(prompt string) string {
	if m := AttachedFileRE.FindStringSubmatch(prompt); m != nil {
		return m[1]
	}
	return ""
}

// ReadTurns is the read scenario in a CLI's own blocks: a turn that reads
// the file the prompt hands over (AttachedFile) with the block read makes,
// then echo (the reply to the tool's result); with no file attached, one
// turn saying so.
func ReadTurns[Turn ~[]B, B any](prompt string, text func(string) B, read func(path string) B, echo Turn) []Turn {
	path := AttachedFile(prompt)
	if path == "" {
		return []Turn{{text("No file was attached to read.")}}
	}
	return []Turn{{text("Let me read the attached file."), read(path)}, echo}
}

// EchoText is the text of a reply that echoes the newest tool results, a
// paragraph each, so tests and the demo can see what the CLI recorded;
// "Done." when there are none.
func EchoText(results []string) string {
	if len(results) == 0 {
		return "Done."
	}
	return strings.Join(results, "\n\n")
}

// SlowText is the slow scenario's reply: n numbered words, twelve a line,
// between a start and an end a test can wait for.
func SlowText(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "word%d ", i)
		if i%12 == 0 {
			b.WriteString("\n")
		}
	}
	return "Streaming slowly: " + b.String() + "finished."
}
