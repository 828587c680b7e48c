package codex

import (
	"strings"
	"time"

	"lab/internal/conv"
	"lab/internal/foldkit"
	"lab/internal/jsonscan"
)

// apply folds one parsed line. It returns false when the line is JSON but
// not in a shape the fold can read (then it counts as skipped).
func (f *Fold) apply(ln *rolloutLine) bool {
	it := &f.it
	if !it.parse(ln.payload) {
		return false
	}
	// The meter's records come first: they need no timestamp (decoding
	// one costs an allocation a line).
	switch {
	case string(ln.typ) == `"turn_context"`:
		f.meter.SetModelRaw(it.model)
		f.applySettings(it)
		return true
	case string(ln.typ) == `"event_msg"` && string(it.typ) == `"token_count"`:
		f.meterCount(it.info)
		return true
	}
	t := foldkit.Timestamp(ln.timestamp)
	switch string(ln.typ) {
	case `"session_meta"`:
		if s := jsonscan.Str(it.id); s != "" {
			f.SetSession(s)
		}
	case `"response_item"`:
		return f.applyItem(it, t)
	case `"event_msg"`:
		f.applyEvent(it, t)
	case `"compacted"`:
		f.compacted(t)
	}
	return true // bookkeeping whose type the peek could not see
}

// applyItem folds a response item: what the model saw and said.
func (f *Fold) applyItem(it *payloadItem, t time.Time) bool {
	switch string(it.typ) {
	case `"message"`:
		return f.applyMessage(it, t)
	case `"reasoning"`:
		if s := reasoningText(it); strings.TrimSpace(s) != "" {
			f.Push(conv.Message{Kind: conv.KindThinking, Time: t, Text: s})
		}
	case `"function_call"`:
		f.toolCall(jsonscan.Str(it.callID), jsonscan.Str(it.name), it.arguments, false, t)
	case `"custom_tool_call"`:
		f.toolCall(jsonscan.Str(it.callID), jsonscan.Str(it.name), it.input, true, t)
	case `"local_shell_call"`:
		f.localShell(it, t)
	case `"web_search_call"`:
		f.webSearch(it, t)
	case `"function_call_output"`, `"custom_tool_call_output"`:
		f.applyOutput(jsonscan.Str(it.callID), it.output, t)
	}
	return true
}

// applyMessage folds a message item: the operator's prompts and the
// agent's prose. Developer instructions and context the CLI injects as
// user messages are not chat.
func (f *Fold) applyMessage(it *payloadItem, t time.Time) bool {
	arr := jsonscan.ArrayAt(it.content)
	if arr.Bad() && !jsonscan.IsString(it.content) {
		return string(it.content) == "null" || it.content == nil
	}
	// Only prompts and the agent's prose are decoded: developer
	// instructions run to tens of kilobytes a turn.
	switch string(it.role) {
	case `"user"`:
		if text, images := f.userContent(it.content); isPrompt(it.metadata, text, len(images) > 0) {
			f.userPrompt(text, images, t)
		}
	case `"assistant"`:
		f.assistantText(jsonscan.Str(it.id), messageText(it.content), t)
	}
	return true
}

// messageText joins a message's text parts (input_text, output_text) with
// blank lines; images show as a placeholder.
func messageText(content []byte) string {
	if s, ok := jsonscan.String(content); ok {
		return s
	}
	var parts []string
	arr := jsonscan.ArrayAt(content)
	for el, ok := arr.Next(); ok; el, ok = arr.Next() {
		switch jsonscan.Str(jsonscan.Member(el, "type")) {
		case "input_text", "output_text", "text":
			parts = append(parts, jsonscan.Str(jsonscan.Member(el, "text")))
		case "input_image", "image":
			parts = append(parts, "[image]")
		}
	}
	return strings.Join(parts, "\n\n")
}

// isPrompt says whether a user message is something the operator typed.
// The CLI marks each content item's provenance (user, or harness for the
// context it injects); without that metadata (older rollouts) a message
// that is one tagged block (<environment_context>…</environment_context>,
// <turn_aborted>…) or the AGENTS.md preamble is injected context.
func isPrompt(metadata []byte, text string, images bool) bool {
	if meta := jsonscan.Member(metadata, "content_item_metadata"); meta != nil {
		arr := jsonscan.ArrayAt(meta)
		for el, ok := arr.Next(); ok; el, ok = arr.Next() {
			if jsonscan.Str(jsonscan.Member(jsonscan.Member(el, "provenance"), "type")) == "user" {
				return images || strings.TrimSpace(text) != ""
			}
		}
		return false
	}
	s := strings.TrimSpace(text)
	if images && !injectedBlock(s) {
		return true
	}
	if s == "" || strings.HasPrefix(s, "# AGENTS.md instructions") {
		return false
	}
	return !injectedBlock(s)
}

// injectedBlock reports whether s is exactly one <tag>…</tag> block.
func injectedBlock(s string) bool {
	if !strings.HasPrefix(s, "<") {
		return false
	}
	end := strings.IndexByte(s, '>')
	if end < 2 {
		return false
	}
	tag := s[1:end]
	for _, r := range tag {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return strings.HasSuffix(s, "</"+tag+">")
}

// userPrompt records what the operator typed. A prompt means any picker
// still open in the fold's view is gone: a question was dismissed; a plan
// was approved (the turn runs in default mode) or kept for more planning,
// and then the prompt is the feedback.
func (f *Fold) userPrompt(s string, images []conv.AttachedFile, t time.Time) {
	s, atts := foldkit.UserText(s, images, imageRE)
	if strings.TrimSpace(s) == "" {
		s = ""
	}
	f.settlePlans(s, t)
	f.dismissPending(t)
	f.Push(conv.Message{Kind: conv.KindText, Role: conv.RoleUser, Time: t, Text: s, Attachments: atts})
	f.SetTail(conv.StateWorking)
}

// assistantText records the agent's prose. A <proposed_plan> block in it
// is a plan dialog, placed where the block stands.
func (f *Fold) assistantText(id, s string, t time.Time) {
	before, plan, after, ok := splitPlan(s)
	if !ok {
		if strings.TrimSpace(s) != "" {
			f.Push(conv.Message{Kind: conv.KindText, Role: conv.RoleAssistant, Time: t, Text: s})
		}
		return
	}
	if strings.TrimSpace(before) != "" {
		f.Push(conv.Message{Kind: conv.KindText, Role: conv.RoleAssistant, Time: t, Text: strings.TrimSpace(before)})
	}
	f.planDialog(id, plan, t)
	if strings.TrimSpace(after) != "" {
		f.Push(conv.Message{Kind: conv.KindText, Role: conv.RoleAssistant, Time: t, Text: strings.TrimSpace(after)})
	}
}

// applyEvent folds the turn events: a turn starting, ending, aborted, and
// the CLI's errors and notices.
func (f *Fold) applyEvent(it *payloadItem, t time.Time) {
	switch string(it.typ) {
	case `"task_started"`:
		f.mode = jsonscan.Str(it.mode)
		f.meter.SetWindow(jsonscan.Int(it.window))
		f.noteMode()
		f.SetTail(conv.StateWorking)
	case `"thread_settings_applied"`:
		var ts payloadItem
		if ts.parse(it.settings) {
			f.applySettings(&ts)
		}
	case `"task_complete"`:
		f.SetTail(conv.StateNeedsInput)
	case `"turn_aborted"`:
		text := "Interrupted"
		if r := jsonscan.Str(it.reason); r != "" && r != "interrupted" {
			text = "Turn ended: " + strings.ReplaceAll(r, "_", " ")
		}
		f.dismissPending(t)
		f.PushLifecycle(conv.LevelInfo, text, t)
		f.SetTail(conv.StateNeedsInput)
	case `"error"`:
		f.PushLifecycle(conv.LevelError, orDefault(jsonscan.Str(it.message), "Error"), t)
		f.SetTail(conv.StateNeedsInput)
	case `"warning"`:
		f.PushLifecycle(conv.LevelWarning, orDefault(jsonscan.Str(it.message), "Warning"), t)
	case `"stream_error"`:
		f.PushLifecycle(conv.LevelWarning, orDefault(jsonscan.Str(it.message), "Stream error, retrying"), t)
	case `"context_compacted"`:
		f.compacted(t)
	case `"thread_rolled_back"`:
		text := "Rolled back"
		switch n := string(it.numTurns); n {
		case "", "null":
		case "1":
			text += " 1 turn"
		default:
			text += " " + n + " turns"
		}
		f.PushLifecycle(conv.LevelInfo, text, t)
	}
}

// profileSandboxes maps the permission profiles "/permissions" applies
// (thread_settings_applied's active_permission_profile) to the sandbox
// modes of lab's start flag.
var profileSandboxes = map[string]string{
	":read-only":          SandboxReadOnly,
	":workspace":          SandboxWorkspaceWrite,
	":danger-full-access": SandboxFullAccess,
}

// applySettings reads what a turn_context or a settings change says the
// CLI uses now: the model, the sandbox (a policy's type, or the profile a
// change applied) and the collaboration mode.
func (f *Fold) applySettings(it *payloadItem) {
	f.SetModel(jsonscan.Str(it.model))
	if m := jsonscan.Str(jsonscan.Member(it.collabMode, "mode")); m != "" {
		f.mode = m
	}
	if p := profileSandboxes[jsonscan.Str(jsonscan.Member(it.profile, "id"))]; p != "" {
		f.sandbox = p
	} else if typ := jsonscan.Str(jsonscan.Member(it.sandboxPolicy, "type")); ValidSandbox(typ) {
		f.sandbox = typ
	}
	f.noteMode()
}

// noteMode records the mode lab calls the run's: Plan mode, else the
// sandbox.
func (f *Fold) noteMode() {
	if f.mode == ModePlan {
		f.SetMode(ModePlan)
		return
	}
	f.SetMode(f.sandbox)
}

// compactedNote is the lifecycle text of a compaction.
const compactedNote = "Conversation compacted"

// compacted notes a compaction once: the CLI may record it both as a
// compacted line and as an event.
func (f *Fold) compacted(t time.Time) {
	if f.Len() > 0 {
		if l := f.At(f.Len() - 1).Lifecycle; l != nil && l.Text == compactedNote {
			return
		}
	}
	f.PushLifecycle(conv.LevelInfo, compactedNote, t)
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// reasoningText is the reasoning's visible summary, else its raw text.
func reasoningText(it *payloadItem) string {
	var parts []string
	for _, raw := range [][]byte{it.summary, it.content} {
		arr := jsonscan.ArrayAt(raw)
		for el, ok := arr.Next(); ok; el, ok = arr.Next() {
			if s := jsonscan.Str(jsonscan.Member(el, "text")); strings.TrimSpace(s) != "" {
				parts = append(parts, s)
			}
		}
		if len(parts) > 0 {
			break
		}
	}
	return strings.Join(parts, "\n\n")
}
