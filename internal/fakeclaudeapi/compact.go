package fakeclaudeapi

import "strings"

// ScenarioCompact is the Scenario recorded for a compaction request: the
// CLI's own request for a summary of the conversation (/compact, or an
// automatic compaction), recognised by its instructions, whatever the
// conversation's scenario.
const ScenarioCompact = "compact"

// isCompaction reports whether text (the newest user message) is the
// CLI's compaction instructions: on 2.1.328–2.1.332 they ask "to create a
// detailed summary of the conversation so far" as an <analysis> block
// followed by a <summary> block.
func isCompaction(text string) bool {
	return strings.Contains(text, "summary of the conversation so far") && strings.Contains(text, "<summary>")
}

// compactSummary is the summary the scripted model writes.
const compactSummary = "The operator talked with lab's scripted model; nothing is left to do."

// compactTurn answers a compaction request the way the CLI wants it, the
// summary streamed word by word (Options.ChunkDelay apart) so that the
// compaction can be seen in progress.
func compactTurn() turn {
	return turn{outBlock{kind: "text", slow: true,
		text: "<analysis>A short scripted conversation.</analysis>\n<summary>" + compactSummary + "</summary>"}}
}
