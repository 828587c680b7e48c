package claude

import (
	"bytes"
	"strings"
	"time"

	"lab/internal/conv"
	"lab/internal/foldkit"
	"lab/internal/jsonscan"
)

// apply folds one parsed line. It returns false when the line is JSON but
// not in a shape the fold can read (then it counts as skipped).
func (f *Fold) apply(ln *foldLine) bool {
	if ln.sessionID != nil && !bytes.Equal(ln.sessionID, f.session) {
		if s, ok := jsonscan.String(ln.sessionID); ok && s != "" {
			f.session = append(f.session[:0], ln.sessionID...)
			f.SetSession(s)
		}
	}
	// Subagent lines belong to the subagent's own conversation, meta lines
	// (caveats, expanded skill prompts) were never typed by anyone.
	if ln.sidechain || ln.meta {
		return true
	}
	// The mode is recorded on each prompt's line and on permission-mode
	// lines (at prompts and turn ends).
	f.SetMode(jsonscan.Str(ln.permissionMode))
	switch string(ln.typ) {
	case `"user"`:
		return f.applyUser(ln)
	case `"assistant"`:
		f.settleApproval()
		return f.applyAssistant(ln)
	case `"system"`:
		f.applySystem(ln)
	case `"attachment"`:
		f.applyAttachment(ln)
	}
	return true // bookkeeping whose type is not its first key
}

func (f *Fold) applyUser(ln *foldLine) bool {
	if ln.compactSummary {
		return true // the compaction prompt; the boundary line already says it
	}
	m := &f.msg
	if !m.parse(ln.message) {
		return false
	}
	t := foldkit.Timestamp(ln.timestamp)
	if s, ok := jsonscan.String(m.content); ok {
		if !f.userSpecial(s, t) {
			f.userPrompt(s, nil, t)
		}
		return true
	}
	arr := jsonscan.ArrayAt(m.content)
	if arr.Bad() {
		return string(m.content) == "null" || m.content == nil
	}
	var prompt []string
	var images []conv.AttachedFile
	bl := &f.blk
	for {
		object, ok := bl.next(&arr)
		if !ok {
			break
		}
		if !object {
			continue
		}
		switch string(bl.typ) {
		case `"text"`:
			s := jsonscan.Str(bl.text)
			if !f.userSpecial(s, t) {
				prompt = append(prompt, s)
			}
		case `"image"`:
			// Only the data's place in the file is kept; its bytes are
			// read from there when a client shows the image.
			if data := jsonscan.Member(bl.source, "data"); jsonscan.IsString(data) {
				images = append(images, foldkit.ImageAt(jsonscan.Str(jsonscan.Member(bl.source, "media_type")), "", data, f.raw, f.LineStart()))
			}
		case `"tool_result"`:
			f.applyResult(bl, ln, t)
		}
	}
	if len(prompt) > 0 || len(images) > 0 {
		f.userPrompt(strings.Join(prompt, "\n\n"), images, t)
	}
	return true
}

// userPrompt records what the operator typed, with the images it came
// with. A prompt means any picker still open in the fold's view is gone,
// so such dialogs are dismissed.
func (f *Fold) userPrompt(s string, images []conv.AttachedFile, t time.Time) {
	s, atts := foldkit.UserText(foldUnwrapPasted(s), images, imageRE)
	if strings.TrimSpace(s) == "" {
		if len(atts) == 0 {
			return
		}
		s = ""
	}
	f.settleApproval()
	f.dismissPending(t)
	f.Push(conv.Message{Kind: conv.KindText, Role: conv.RoleUser, Time: t, Text: s, Attachments: atts})
	f.SetTail(conv.StateWorking)
}

// userSpecial handles the user-line texts that are not prompts: interrupt
// markers, slash-command echoes and their output, bash-mode echoes. It
// reports whether s was one of them.
func (f *Fold) userSpecial(s string, t time.Time) bool {
	trimmed := strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(trimmed, "[Request interrupted by user"):
		f.dismissPending(t)
		f.PushLifecycle(conv.LevelInfo, strings.Trim(trimmed, "[]"), t)
		f.SetTail(conv.StateNeedsInput)
		return true
	case strings.HasPrefix(trimmed, "<local-command-caveat>"):
		return true
	}
	return f.commandText(s, t)
}

// commandText renders slash-command and bash-mode records: the command as
// the user's text, non-empty output as a lifecycle note. None of them
// moves the state: the agent did not run.
func (f *Fold) commandText(s string, t time.Time) bool {
	switch {
	case strings.Contains(s, "<command-name>"):
		name := strings.TrimSpace(foldTag(s, "command-name"))
		if name != "" && !strings.HasPrefix(name, "/") {
			name = "/" + name
		}
		if args := strings.TrimSpace(foldTag(s, "command-args")); args != "" {
			name += " " + args
		}
		if name != "" {
			f.Push(conv.Message{Kind: conv.KindText, Role: conv.RoleUser, Time: t, Text: name})
		}
		return true
	case strings.Contains(s, "<bash-input>"):
		if cmd := foldTag(s, "bash-input"); cmd != "" {
			f.Push(conv.Message{Kind: conv.KindText, Role: conv.RoleUser, Time: t, Text: "! " + cmd})
		}
		return true
	}
	handled := false
	for _, o := range [...]struct {
		tag   string
		level conv.Level
	}{
		{"local-command-stdout", conv.LevelInfo},
		{"local-command-stderr", conv.LevelError},
		{"bash-stdout", conv.LevelInfo},
		{"bash-stderr", conv.LevelError},
	} {
		if !strings.Contains(s, "<"+o.tag+">") {
			continue
		}
		handled = true
		if out := strings.TrimSpace(foldStripANSI(foldTag(s, o.tag))); out != "" {
			f.PushLifecycle(o.level, out, t)
		}
	}
	return handled
}

// foldTag returns the text between <tag> and </tag> (to the end when the
// closing tag is missing), or "".
func foldTag(s, tag string) string {
	i := strings.Index(s, "<"+tag+">")
	if i < 0 {
		return ""
	}
	s = s[i+len(tag)+2:]
	if j := strings.Index(s, "</"+tag+">"); j >= 0 {
		s = s[:j]
	}
	return s
}

// foldStripANSI removes terminal escape sequences (CSI ... final byte)
// that command output carries for the TUI.
func foldStripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != 0x1b {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '[' {
			i += 2
			for i < len(s) && (s[i] < 0x40 || s[i] > 0x7e) {
				i++
			}
		}
	}
	return b.String()
}

// applyResult back-patches the tool or dialog a tool_result block answers.
func (f *Fold) applyResult(bl *foldBlock, ln *foldLine, t time.Time) {
	f.Result(jsonscan.Str(bl.toolUseID), func(i int, d *conv.Dialog) {
		f.resolveDialog(i, deriveOutcome(d, foldResolution{
			result:  ln.toolUseResult,
			denial:  jsonscan.Str(ln.toolDenialKind),
			isError: bl.isError,
			content: bl.content,
		}), t)
	}, func(i int, tc *conv.ToolCall) {
		f.Settle(i)
		out, full := foldOutput(bl.content, foldkit.OutputMax)
		tc.Status = conv.ToolOK
		if bl.isError {
			tc.Status = conv.ToolError
		}
		tc.Output, tc.OutputBytes, tc.OutputTruncated = out, full, full > len(out)
		tc.Decision = foldDecision(ln)
		f.Changed(i)
	})
}

func (f *Fold) applyAssistant(ln *foldLine) bool {
	m := &f.msg
	if !m.parse(ln.message) {
		return false
	}
	t := foldkit.Timestamp(ln.timestamp)
	if ln.apiError {
		// The CLI records a failed request as a synthetic assistant message;
		// it ends the turn.
		text, _ := foldOutput(m.content, foldkit.OutputMax)
		if text = strings.TrimSpace(text); text == "" {
			text = "API error"
		}
		f.PushLifecycle(conv.LevelError, text, t)
		f.SetTail(conv.StateNeedsInput)
		return true
	}
	if model := jsonscan.Str(m.model); model != "<synthetic>" {
		f.SetModel(model) // the model that answered
	}
	f.meterRequest(m)
	if s, ok := jsonscan.String(m.content); ok {
		f.assistantText(s, m.stopReason, t)
		return true
	}
	arr := jsonscan.ArrayAt(m.content)
	if arr.Bad() {
		return false
	}
	bl := &f.blk
	for {
		object, ok := bl.next(&arr)
		if !ok {
			break
		}
		if !object {
			continue
		}
		switch string(bl.typ) {
		case `"text"`:
			f.assistantText(jsonscan.Str(bl.text), m.stopReason, t)
		case `"thinking"`:
			if s := jsonscan.Str(bl.thinking); strings.TrimSpace(s) != "" {
				f.Push(conv.Message{Kind: conv.KindThinking, Time: t, Text: s})
				f.SetTail(conv.StateWorking)
			}
		case `"tool_use"`:
			f.toolUse(bl, t)
		}
	}
	return true
}

// assistantText records the agent's prose. Text ends a turn unless the
// message says it stopped for a tool; the CLI writes each block as soon as
// it is complete, usually with stop_reason still null, so the tool_use line
// that may follow is what moves the state back to working.
func (f *Fold) assistantText(s string, stopReason []byte, t time.Time) {
	if strings.TrimSpace(s) == "" {
		return
	}
	f.Push(conv.Message{Kind: conv.KindText, Role: conv.RoleAssistant, Time: t, Text: s})
	if string(stopReason) == `"tool_use"` {
		f.SetTail(conv.StateWorking)
	} else {
		f.SetTail(conv.StateNeedsInput)
	}
}

// toolUse records a tool call: a dialog for the picker tools, else a chip
// that runs until its result arrives.
func (f *Fold) toolUse(bl *foldBlock, t time.Time) {
	id := jsonscan.Str(bl.id)
	if _, dup := f.Call(id); dup && id != "" {
		return // a re-written line; the first one holds the seq
	}
	name := jsonscan.Str(bl.name)
	f.SetTail(conv.StateWorking)
	var d *conv.Dialog
	switch name {
	case ToolAskUserQuestion:
		d = foldQuestionDialog(id, bl.input)
	case ToolExitPlanMode:
		d = foldPlanDialog(id, bl.input)
	}
	if d != nil {
		f.PushDialog(d, t)
		return
	}
	detail, cut := foldToolDetail(name, bl.input)
	f.PushTool(&conv.ToolCall{
		ID:              id,
		Name:            name,
		Input:           foldToolSummary(name, bl.input),
		Detail:          detail,
		DetailTruncated: cut,
		Status:          conv.ToolRunning,
		Files:           foldToolFiles(name, bl.input),
	}, t)
}

func (f *Fold) applySystem(ln *foldLine) {
	t := foldkit.Timestamp(ln.timestamp)
	switch string(ln.subtype) {
	case `"compact_boundary"`:
		text := "Conversation compacted"
		if trig := jsonscan.Str(jsonscan.Member(ln.compactMeta, "trigger")); trig != "" {
			text += " (" + trig + ")"
		}
		f.PushLifecycle(conv.LevelInfo, text, t)
	case `"local_command"`:
		if s, ok := jsonscan.String(ln.content); ok {
			f.commandText(s, t)
		}
	case `"api_error"`:
		// A failed request the CLI retries; the turn goes on.
		text := "API error"
		if a, m := string(ln.retryAttempt), string(ln.maxRetries); a != "" && m != "" {
			text += ", retrying (attempt " + a + " of " + m + ")"
		}
		f.PushLifecycle(conv.LevelWarning, text, t)
	case `"turn_duration"`:
		f.SetTail(conv.StateNeedsInput) // written when a turn ends
	}
}
