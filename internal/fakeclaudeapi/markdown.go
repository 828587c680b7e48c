package fakeclaudeapi

import (
	"fmt"
	"strings"
)

// markdownTurns shows what the chat must render well: headings, lists,
// code blocks in several languages, a table, a quote, inline code and a
// long body. In plan mode the same material comes as a long plan through
// ExitPlanMode, so the plan card can be tried with real length.
func markdownTurns(c *call) []turn {
	if c.req.PlanPath != "" {
		return []turn{
			{text("I will write a detailed plan first."), tool("Write", map[string]any{"file_path": c.req.PlanPath, "content": LongPlanMarkdown})},
			{tool("ExitPlanMode", map[string]any{"plan": LongPlanMarkdown})},
			echoTurn(c),
		}
	}
	return []turn{{text(MarkdownReply)}}
}

// MarkdownReply is the markdown scenario's answer outside plan mode.
var MarkdownReply = `# A tour of markdown

Here is **bold**, *italic*, ~~struck~~ and ` + "`inline code`" + `, plus a [link](https://example.org).

## A table

| Store | Setup | Good for |
|---|---|---|
| SQLite | none, a file | one machine, many readers |
| PostgreSQL | a server | many writers, big data |
| DuckDB | none, a file | analytics |

## Code

A Go function:

` + "```go" + `
// Search returns the sessions whose text contains q.
func Search(q string, sessions []Session) []Session {
	var out []Session
	for _, s := range sessions {
		if strings.Contains(strings.ToLower(s.Text), strings.ToLower(q)) {
			out = append(out, s)
		}
	}
	return out
}
` + "```" + `

A shell session:

` + "```sh" + `
go test ./... -run TestSearch -count=1
git commit -am "search: match conversation text"
` + "```" + `

And some JSON:

` + "```json" + `
{"id": "r-1", "state": "working", "pending": false}
` + "```" + `

> A quote: the chat pane is the only scroll container.

## A long list

` + longList(12) + `
That was the whole tour.
`

// LongPlanMarkdown is the markdown scenario's plan in plan mode: long
// enough to scroll, with code and a table inside.
var LongPlanMarkdown = `# Plan: full-text search over history

## Context

History only matches titles and folders today. Searching what was said needs
an index that stays current as transcripts grow.

## Steps

` + longList(16) + `
## Interfaces

| Piece | Change |
|---|---|
| internal/chat | an incremental index fed by the folds |
| internal/httpapi | ` + "`GET /sessions?q=`" + ` matches conversation text |
| web | rows show the message count and last activity |

` + "```go" + `
type Index interface {
	Update(path string, size int64) error
	Search(q string) []string
}
` + "```" + `

## Risks

- Memory grows with the vocabulary; measure it on a large history.
- A transcript rewritten in place must be re-indexed from the start.

## Done when

- A word from the middle of a conversation finds it.
- Going back from a session keeps the search.
`

// longList numbers n steps of some length, so the text wraps on a phone.
func longList(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d. Step %d: change `part%d.go` so that it handles case %d, with a table-driven test beside it and a note in the docs.\n", i, i, i, i)
	}
	return b.String()
}
