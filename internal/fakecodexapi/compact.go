package fakecodexapi

// compactionMarker starts the user message of the CLI's compaction
// request (/compact, a model switch to a smaller window, or an automatic
// compaction) on 0.171.0: "You are performing a CONTEXT CHECKPOINT
// COMPACTION. Create a handoff summary for another LLM …", sent with no
// tools. Such a request is recorded with KindCompact.
const compactionMarker = "You are performing a CONTEXT CHECKPOINT COMPACTION"

// compactSummary is the handoff summary the scripted model writes.
const compactSummary = "Handoff summary: the operator talked with lab's scripted model; nothing is left to do."

// compactTurn answers a compaction request, streamed a word at a time
// (Options.ChunkDelay apart) so that the compaction can be seen in
// progress.
func compactTurn() turn {
	return turn{outItem{kind: "text", text: compactSummary, slow: true}}
}
