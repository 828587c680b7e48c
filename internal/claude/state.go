package claude

// How the fold derives the conversational state from the transcript alone
// (foldkit's Stream holds it and answers State):
//
// Every state-moving record sets the tail (SetTail): a prompt, a thinking
// block, a tool call or result, and an answered dialog mean the agent is
// working; prose without a following tool call, an interrupt, a failed
// request and the end-of-turn record mean it needs input. Slash-command
// echoes, their output, compaction notes and desync warnings do not move
// it. A pending dialog overrides all of that: question, and only then.
