// Package drift normalises captured real-CLI fixtures (transcripts, hook
// payloads, panes) so two captures can be diffed for what changed in the
// CLI rather than for what changes on every run: ids, times, hashes, the
// version string, and the mascot and blank space of the TUI.
//
// `make drift` runs cmd/normfixtures over the committed fixture set and a
// fresh capture, then diffs the two normalised trees.
package drift

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Normalizer rewrites the volatile parts of one file. Ids are numbered in
// order of first appearance within the file, so references between lines
// (a parentUuid naming an earlier uuid) survive normalisation.
type Normalizer struct {
	// Version is the CLI version the file was captured with; it becomes
	// <version>.
	Version string
	ids     map[string]string
	counts  map[string]int
}

// NewNormalizer returns a Normalizer for one file captured with version.
func NewNormalizer(version string) *Normalizer {
	return &Normalizer{Version: version, ids: map[string]string{}, counts: map[string]int{}}
}

// longText is the length above which a string is replaced by a digest:
// system prompts and request blobs change with every release and would
// drown the diff; a changed digest still shows that they changed.
const longText = 400

var (
	uuidRE = regexp.MustCompile(`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	// Ids the CLI or the scripted model mint: toolu_…, msg_…, req_….
	prefixedIDRE = regexp.MustCompile(`\b(toolu|msg|req|srvtoolu)_[A-Za-z0-9]{8,}\b`)
	hashRE       = regexp.MustCompile(`\b[0-9a-f]{40,64}\b`)
	timeRE       = regexp.MustCompile(`\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)`)
	dateRE       = regexp.MustCompile(`\b20\d\d-\d\d-\d\d\b`)
	// Spool file names and other nanosecond stamps.
	nanosRE = regexp.MustCompile(`\b1[6-9]\d{17}\b`)
	// File-history backups are named by a hash of content and time.
	backupRE = regexp.MustCompile(`\b[0-9a-f]{16}@v(\d+)\b`)
	// Plan files get a random two-word slug after the prompt's words.
	planSlugRE = regexp.MustCompile(`(\.claude/plans/)[A-Za-z0-9-]+\.md`)
	mascotRE   = regexp.MustCompile(`[▐▛█▜▌▝▘▗▖▙▟▀▄▞▚▁▂]+`)
	// bannerLeadRE is whatever the animated mascot draws before a banner
	// line's text (blocks, dots, spaces in varying frames).
	bannerLeadRE = regexp.MustCompile(`^[^\pL\pN/~]*`)
	// The scripted model's slow stream ("word1 word2 … wordN"): how many
	// words arrived before an interrupt or a capture is timing.
	slowWordsRE = regexp.MustCompile(`\bword1(?:\s+word\d+)*\s*`)
)

// volatileKey reports whether a number under key varies from run to run
// (durations, clock times, process ids; token counts, which the scripted
// model derives from the size of a request that holds times and ids).
func volatileKey(key string) bool { return volatileKeyRE.MatchString(key) }

// volatileKeyRE matches camelCase and snake_case names of such numbers
// ("durationMs", "updatedAt", "input_tokens", "pid"), not words that only
// end in the same letters ("items").
var volatileKeyRE = regexp.MustCompile(`(?:Ms|_ms|At|_at|Time|_time|Duration|_duration|Seconds|_seconds|Nanos|Tokens|_tokens|USD|_usd)$|^(?:timestamp|pid|duration|cost|tokens)$`)

// id returns the stable stand-in for an id of the given kind.
func (n *Normalizer) id(kind, raw string) string {
	if s, ok := n.ids[raw]; ok {
		return s
	}
	n.counts[kind]++
	s := "<" + kind + "-" + strconv.Itoa(n.counts[kind]) + ">"
	n.ids[raw] = s
	return s
}

// Text normalises free text: ids, times, dates, hashes, the version.
func (n *Normalizer) Text(s string) string {
	if n.Version != "" {
		s = strings.ReplaceAll(s, n.Version, "<version>")
	}
	s = planSlugRE.ReplaceAllString(s, "${1}<slug>.md")
	s = timeRE.ReplaceAllString(s, "<time>")
	s = dateRE.ReplaceAllString(s, "<date>")
	s = uuidRE.ReplaceAllStringFunc(s, func(m string) string { return n.id("uuid", m) })
	s = prefixedIDRE.ReplaceAllStringFunc(s, func(m string) string {
		kind, _, _ := strings.Cut(m, "_")
		return n.id(kind, m)
	})
	s = hashRE.ReplaceAllString(s, "<hash>")
	s = backupRE.ReplaceAllString(s, "<backup>@v$1")
	s = slowWordsRE.ReplaceAllString(s, "word1 … ")
	s = nanosRE.ReplaceAllString(s, "<nanos>")
	return s
}

// JSONLines normalises a file of JSON lines (a transcript, a hook log) or
// a single JSON document: each value is rewritten with its keys sorted and
// one field per line (without commas, so an added field changes one line),
// so a diff names the field that changed. A line that is not JSON is
// normalised as text.
//
// The CLI writes its bookkeeping lines (api-request, mode, last-prompt, …)
// at times that vary from run to run relative to the conversation, so the
// conversation's lines (those with a uuid) come first in their order, then
// the bookkeeping lines grouped by type, each group in its order, each
// distinct line once. api-request-blob lines are left out.
func (n *Normalizer) JSONLines(b []byte) []byte {
	type line struct {
		v    any
		text string // when not JSON
		kind string // bookkeeping type, "" for conversation lines
	}
	var conv, book []line
	for _, raw := range bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n")) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil || dec.More() {
			conv = append(conv, line{text: string(raw)})
			continue
		}
		obj, _ := v.(map[string]any)
		if _, ok := obj["uuid"]; ok || obj == nil {
			conv = append(conv, line{v: v})
			continue
		}
		kind, _ := obj["type"].(string)
		if kind == "api-request-blob" {
			// Copies of a request's messages, written at times that vary
			// (before or after the line they copy, or not before the
			// capture ends); lab never reads them.
			continue
		}
		if kind == "" {
			// A hook payload: keep hook logs in firing order.
			conv = append(conv, line{v: v})
			continue
		}
		book = append(book, line{v: v, kind: kind})
	}
	sort.SliceStable(book, func(i, j int) bool { return book[i].kind < book[j].kind })
	var out bytes.Buffer
	render := func(l line) string {
		if l.v == nil {
			return n.Text(l.text) + "\n"
		}
		var b bytes.Buffer
		n.write(&b, "", l.v, 0)
		b.WriteByte('\n')
		return b.String()
	}
	for _, l := range conv {
		out.WriteString(render(l))
	}
	if len(book) > 0 {
		out.WriteString("# bookkeeping lines, by type, each once\n")
	}
	// How often the CLI rewrites the same bookkeeping line (mode,
	// last-prompt, …) depends on timing; what it writes does not.
	seen := map[string]bool{}
	for _, l := range book {
		if s := render(l); !seen[s] {
			seen[s] = true
			out.WriteString(s)
		}
	}
	return out.Bytes()
}

// write renders v with sorted keys, one field per line.
func (n *Normalizer) write(out *bytes.Buffer, key string, v any, depth int) {
	indent := strings.Repeat("  ", depth+1)
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			out.WriteString("{}")
			return
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out.WriteString("{\n")
		for _, k := range keys {
			out.WriteString(indent + strconv.Quote(n.Text(k)) + ": ")
			n.write(out, k, x[k], depth+1)
			out.WriteString("\n")
		}
		out.WriteString(strings.Repeat("  ", depth) + "}")
	case []any:
		if len(x) == 0 {
			out.WriteString("[]")
			return
		}
		out.WriteString("[\n")
		for _, e := range x {
			out.WriteString(indent)
			n.write(out, key, e, depth+1)
			out.WriteString("\n")
		}
		out.WriteString(strings.Repeat("  ", depth) + "]")
	case string:
		s := n.Text(x)
		switch key {
		case "slug":
			s = "<slug>"
		case "leafUuid":
			// last-prompt lines name whichever line was the newest when
			// they were written: timing, not shape.
			s = "<leaf>"
		}
		if len(s) > longText {
			sum := sha256.Sum256([]byte(s))
			s = fmt.Sprintf("<%d lines of text, sha256 %s>", strings.Count(s, "\n")+1, hex.EncodeToString(sum[:4]))
		}
		out.WriteString(strconv.Quote(s))
	case json.Number:
		if volatileKey(key) {
			out.WriteString("<number>")
			return
		}
		out.WriteString(x.String())
	default:
		b, _ := json.Marshal(x)
		out.Write(b)
	}
}

// Pane normalises a captured pane: the welcome banner (whose mascot
// animates, shifting the text beside it), the blinking dot of a running
// tool call, trailing spaces, the version,
// and runs of blank lines, which become one "<N blank lines>" line so a
// picker that moved up or down shows as one changed line.
func (n *Normalizer) Pane(b []byte) []byte {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	// The banner is the first block of non-blank lines when it holds the
	// mascot or the "Claude Code v" title.
	if end := firstBlock(lines); end > 0 && strings.Contains(strings.Join(lines[:end], "\n"), "Claude Code v") {
		for i := range lines[:end] {
			lines[i] = "<banner> " + bannerLeadRE.ReplaceAllString(lines[i], "")
		}
	}
	// The dot before a tool call that is still running blinks.
	for i := 0; i+1 < len(lines); i++ {
		if strings.HasPrefix(lines[i+1], "  ⎿") {
			if rest, ok := strings.CutPrefix(lines[i], "● "); ok {
				lines[i] = "<●> " + rest
			} else if rest, ok := strings.CutPrefix(lines[i], "  "); ok && rest != "" && rest[0] != ' ' {
				lines[i] = "<●> " + rest
			}
		}
	}
	var out []string
	blank := 0
	flush := func() {
		switch {
		case blank == 1:
			out = append(out, "")
		case blank > 1:
			out = append(out, fmt.Sprintf("<%d blank lines>", blank))
		}
		blank = 0
	}
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			blank++
			continue
		}
		flush()
		l = mascotRE.ReplaceAllString(l, "<mascot>")
		out = append(out, n.Text(l))
	}
	flush()
	return []byte(strings.Join(out, "\n") + "\n")
}

// firstBlock returns the end of the first run of non-blank lines, or 0
// when there is none.
func firstBlock(lines []string) int {
	start := 0
	for start < len(lines) && strings.TrimSpace(lines[start]) == "" {
		start++
	}
	end := start
	for end < len(lines) && strings.TrimSpace(lines[end]) != "" {
		end++
	}
	return end
}
