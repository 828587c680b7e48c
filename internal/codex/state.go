package codex

// How the fold derives the conversational state from the rollout alone
// (foldkit's Stream holds it and answers State):
//
// Codex records its turns explicitly: task_started (working) and
// task_complete or turn_aborted (the turn ended: needs input), so prose
// does not have to be guessed at as Claude Code's does. A prompt, a tool
// call or output also mean working; an error event ends the turn.
// Compaction notes and other notices do not move the state. A pending
// dialog overrides all of that: question, and only then. A tool approval
// prompt is never in the rollout: the live layer overlays it from the
// PermissionRequest hook and the pane.
