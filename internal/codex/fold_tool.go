package codex

import (
	"strconv"
	"strings"
	"time"

	"lab/internal/conv"
	"lab/internal/foldkit"
	"lab/internal/jsonscan"
)

// toolCall records a call: a dialog for request_user_input, else a chip
// that runs until its output arrives. freeform says raw is a custom tool's
// input string rather than JSON arguments in a string.
func (f *Fold) toolCall(id, name string, raw []byte, freeform bool, t time.Time) {
	if _, dup := f.Call(id); dup && id != "" {
		return // a re-written line; the first one holds the seq
	}
	f.SetTail(conv.StateWorking)
	if name == ToolRequestUserInput && !freeform {
		args, _ := jsonscan.String(raw)
		d, ids := questionDialog(id, []byte(args))
		f.qids[f.PushDialog(d, t)] = ids
		return
	}
	detail, cut := toolDetail(name, raw, freeform)
	f.PushTool(&conv.ToolCall{
		ID:              id,
		Name:            name,
		Input:           toolSummary(name, raw, freeform),
		Status:          conv.ToolRunning,
		Detail:          detail,
		DetailTruncated: cut,
		Files:           toolFiles(name, raw, freeform),
	}, t)
}

// toolFiles lists the files a call writes: a patch's.
func toolFiles(name string, raw []byte, freeform bool) []string {
	if name != ToolApplyPatch {
		return nil
	}
	if freeform {
		return patchFiles(jsonscan.Str(raw))
	}
	args, _ := jsonscan.String(raw)
	o := []byte(args)
	for _, k := range []string{"input", "patch"} {
		if s := jsonscan.Str(jsonscan.Member(o, k)); s != "" {
			return patchFiles(s)
		}
	}
	return nil
}

// toolDetail gives the input text a chip shows when expanded, where the
// summary cannot hold it: a command longer than one line or than the
// summary, a patch. It is cut to foldkit.OutputMax bytes like an output.
func toolDetail(name string, raw []byte, freeform bool) (detail string, truncated bool) {
	var s string
	var full int
	switch {
	case name == ToolApplyPatch && freeform:
		s, full, _ = jsonscan.StringPrefix(raw, foldkit.OutputMax)
	case name == ToolExecCommand && !freeform:
		args, _, _ := jsonscan.StringPrefix(raw, 64<<10)
		s, full, _ = jsonscan.StringPrefix(jsonscan.Member([]byte(args), "cmd"), foldkit.OutputMax)
		if full <= foldkit.SummaryMax && !strings.Contains(strings.TrimSpace(s), "\n") {
			return "", false // the summary holds it all
		}
	default:
		return "", false
	}
	if strings.TrimSpace(s) == "" {
		return "", false
	}
	return s, full > len(s)
}

// localShell records a local_shell_call item (an older shell tool whose
// call carries its own status).
func (f *Fold) localShell(it *payloadItem, t time.Time) {
	var argv []string
	arr := jsonscan.ArrayAt(jsonscan.Member(it.action, "command"))
	for el, ok := arr.Next(); ok; el, ok = arr.Next() {
		argv = append(argv, jsonscan.Str(el))
	}
	id := jsonscan.Str(it.callID)
	if id == "" {
		id = jsonscan.Str(it.id)
	}
	f.toolCall(id, "local_shell", nil, true, t)
	if i, ok := f.Call(id); ok && f.At(i).Tool != nil {
		f.At(i).Tool.Input = foldkit.OneLine(strings.Join(argv, " "), foldkit.SummaryMax)
		f.At(i).SetHash()
	}
}

// webSearch records a web search the model ran itself: it is complete
// when written.
func (f *Fold) webSearch(it *payloadItem, t time.Time) {
	id := jsonscan.Str(it.id)
	if _, dup := f.Call(id); dup && id != "" {
		return
	}
	status := conv.ToolOK
	if s := jsonscan.Str(it.status); s == "failed" || s == "incomplete" {
		status = conv.ToolError
	}
	f.PushTool(&conv.ToolCall{
		ID: id, Name: "web_search", Status: status,
		Input: foldkit.OneLine(jsonscan.Str(jsonscan.Member(it.action, "query")), foldkit.SummaryMax),
	}, t)
}

// applyOutput back-patches the tool or dialog an output belongs to.
func (f *Fold) applyOutput(id string, raw []byte, t time.Time) {
	f.Result(id, func(i int, d *conv.Dialog) {
		text, _ := outputText(raw, 1<<20)
		f.Resolve(i, questionOutcome(d.Questions, f.qids[i], text), t)
	}, func(i int, tc *conv.ToolCall) {
		if tc.Status != conv.ToolRunning {
			return // the first output stands
		}
		f.Settle(i)
		text, full := outputText(raw, foldkit.OutputMax+execHeaderMax)
		out, failed, cut := toolResult(tc.Name, text)
		tc.Status = conv.ToolOK
		if failed {
			tc.Status = conv.ToolError
		}
		full -= cut
		if len(out) > foldkit.OutputMax {
			out = out[:jsonscan.RuneCut([]byte(out), foldkit.OutputMax)]
		}
		tc.Output, tc.OutputBytes, tc.OutputTruncated = out, full, full > len(out)
		f.Changed(i)
	})
}

// outputText renders an output value (a string, or content parts with
// text) as text of at most max bytes, and returns the length the full
// text would have. An object ({"content": …, "success": …} on some
// versions) shows its content when it has one.
func outputText(raw []byte, max int) (text string, full int) {
	if jsonscan.IsObject(raw) {
		if c := jsonscan.Member(raw, "content"); c != nil {
			return outputText(c, max)
		}
	}
	return foldkit.Output(raw, max, outputPart)
}

// outputPart names the content parts of an output.
func outputPart(typ string) foldkit.Part {
	switch typ {
	case "input_text", "output_text", "text":
		return foldkit.PartText
	case "input_image", "image":
		return foldkit.PartImage
	}
	return foldkit.PartNone
}

// execHeaderMax bounds the header the CLI puts before a command's output
// ("Chunk ID: …\nWall time: …\nProcess exited with code N\n…Output:\n"):
// the fold reads that much more so the shown output keeps its full size.
const execHeaderMax = 512

// abortedPrefix starts the output the CLI records for a call the operator
// stopped: a declined approval, an Escape, an interrupt.
const abortedPrefix = "aborted by user"

// aborted reports whether an output is the CLI's record of a call the
// operator stopped: "aborted by user after 3.7s", or for a command
// "Wall time: 1.3 seconds\naborted by user".
func aborted(text string) bool {
	for i, l := range strings.SplitN(text, "\n", 3) {
		if strings.HasPrefix(l, abortedPrefix) {
			return true
		}
		if i == 0 && !strings.HasPrefix(l, "Wall time:") {
			return false
		}
	}
	return false
}

// toolResult turns a tool's output text into what the chip shows: the
// output after the header the CLI puts before a command's or a patch's
// output ("Chunk ID…/Process exited with code N/…/Output:", or "Exit code:
// N/Wall time…/Output:"), failed when the exit code is not 0, when the
// operator aborted the call, or when a patch did not apply. cut is how
// many leading bytes were dropped.
func toolResult(name, text string) (out string, failed bool, cut int) {
	if aborted(text) {
		return text, true, 0
	}
	if h := strings.Index(text, "\nOutput:\n"); h >= 0 && h < execHeaderMax && outputHeader(text[:h]) {
		code, ok := exitCode(text[:h])
		cut = h + len("\nOutput:\n")
		return text[cut:], ok && code != 0, cut
	}
	if name == ToolApplyPatch {
		return text, !strings.HasPrefix(text, "Success"), 0
	}
	return text, false, 0
}

// outputHeader reports whether text is the header the CLI writes before a
// tool's output: it starts with one of its fields.
func outputHeader(text string) bool {
	for _, f := range []string{"Chunk ID: ", "Exit code: ", "Wall time: ", "Process "} {
		if strings.HasPrefix(text, f) {
			return true
		}
	}
	return false
}

// exitCode finds "Process exited with code N" or "Exit code: N" in an
// output header.
func exitCode(header string) (int, bool) {
	for _, marker := range []string{"Process exited with code ", "Exit code: "} {
		i := strings.Index(header, marker)
		if i < 0 || (i > 0 && header[i-1] != '\n') {
			continue
		}
		s := header[i+len(marker):]
		if j := strings.IndexByte(s, '\n'); j >= 0 {
			s = s[:j]
		}
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
			return n, true
		}
	}
	return 0, false
}

// toolSummary gives the one-line input summary of a tool chip: what the
// operator needs to recognise the call (the command, the files a patch
// touches, the plan's progress).
func toolSummary(name string, raw []byte, freeform bool) string {
	if freeform {
		input := jsonscan.Str(raw)
		if name == ToolApplyPatch {
			return foldkit.OneLine(patchSummary(input), foldkit.SummaryMax)
		}
		return foldkit.OneLine(input, foldkit.SummaryMax)
	}
	// Arguments are JSON inside a JSON string; a prefix is plenty for one
	// line and keeps a heredoc of megabytes from being decoded whole.
	args, _, _ := jsonscan.StringPrefix(raw, 64<<10)
	o := []byte(args)
	pick := func(keys ...string) string {
		for _, k := range keys {
			if s := jsonscan.Str(jsonscan.Member(o, k)); strings.TrimSpace(s) != "" {
				return s
			}
		}
		return ""
	}
	var s string
	switch name {
	case ToolExecCommand:
		s = pick("cmd", "command")
	case ToolWriteStdin:
		s = pick("chars")
		if s == "" {
			s = "(poll)"
		}
	case ToolUpdatePlan:
		s = planSummary(o)
	case "shell", "shell_command":
		s = pick("command")
		if s == "" {
			var argv []string
			arr := jsonscan.ArrayAt(jsonscan.Member(o, "command"))
			for el, ok := arr.Next(); ok; el, ok = arr.Next() {
				argv = append(argv, jsonscan.Str(el))
			}
			s = strings.Join(argv, " ")
		}
	case ToolApplyPatch: // as a JSON function on some models
		s = patchSummary(pick("input", "patch"))
	}
	if s == "" {
		s = pick("path", "file_path", "query", "url", "cmd", "command", "description", "prompt")
	}
	if s == "" && jsonscan.IsObject(o) && len(args) > 2 {
		s = args[:jsonscan.RuneCut(o, 4*foldkit.SummaryMax)] // an unknown tool: its raw arguments, cut
	}
	return foldkit.OneLine(s, foldkit.SummaryMax)
}

// planSummary reads update_plan's arguments: "2/3 done: <step in progress>".
func planSummary(args []byte) string {
	total, done := 0, 0
	var current string
	arr := jsonscan.ArrayAt(jsonscan.Member(args, "plan"))
	for el, ok := arr.Next(); ok; el, ok = arr.Next() {
		total++
		switch jsonscan.Str(jsonscan.Member(el, "status")) {
		case "completed":
			done++
		case "in_progress":
			if current == "" {
				current = jsonscan.Str(jsonscan.Member(el, "step"))
			}
		}
	}
	s := strconv.Itoa(done) + "/" + strconv.Itoa(total) + " done"
	if current != "" {
		s += ": " + current
	}
	return s
}
