package claude

import (
	"strconv"
	"strings"

	"lab/internal/foldkit"
	"lab/internal/jsonscan"
)

// foldOutput renders a tool_result content value (a string, or an array of
// text and image blocks) as text of at most max bytes, and returns the
// length the full text would have.
func foldOutput(raw []byte, max int) (text string, full int) {
	return foldkit.Output(raw, max, resultPart)
}

// resultPart names the blocks of a tool_result's content.
func resultPart(typ string) foldkit.Part {
	switch typ {
	case "text":
		return foldkit.PartText
	case "image":
		return foldkit.PartImage
	}
	return foldkit.PartNone
}

// foldToolSummary gives the one-line input summary of a tool chip: what the
// operator needs to recognise the call (the command, the file, the pattern).
// The keys are Claude Code's tools' input fields (a per-CLI table).
func foldToolSummary(name string, input []byte) string {
	var v struct {
		command, filePath, notebookPath, path, pattern, url, query, description, skill, prompt, todos []byte
	}
	o := jsonscan.ObjectAt(input)
	for {
		k, val, ok := o.Next()
		if !ok {
			break
		}
		switch string(k) {
		case "command":
			v.command = val
		case "file_path":
			v.filePath = val
		case "notebook_path":
			v.notebookPath = val
		case "path":
			v.path = val
		case "pattern":
			v.pattern = val
		case "url":
			v.url = val
		case "query":
			v.query = val
		case "description":
			v.description = val
		case "skill":
			v.skill = val
		case "prompt":
			v.prompt = val
		case "todos":
			v.todos = val
		}
	}
	pick := func(raws ...[]byte) string {
		for _, r := range raws {
			// A prefix is plenty for one line and keeps a heredoc of
			// megabytes from being decoded whole.
			if s, _, ok := jsonscan.StringPrefix(r, 4*foldkit.SummaryMax); ok && strings.TrimSpace(s) != "" {
				return s
			}
		}
		return ""
	}
	var s string
	switch name {
	case "Bash":
		s = pick(v.command)
	case "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "NotebookRead":
		s = pick(v.filePath, v.notebookPath)
	case "Glob", "Grep":
		s = pick(v.pattern)
		if p := pick(v.path); s != "" && p != "" {
			s += " in " + p
		}
	case "WebFetch":
		s = pick(v.url)
	case "WebSearch", "ToolSearch":
		s = pick(v.query)
	case "Task", "Agent":
		s = pick(v.description, v.prompt)
	case "Skill":
		s = pick(v.skill)
	case "TodoWrite":
		n := 0
		arr := jsonscan.ArrayAt(v.todos)
		for _, ok := arr.Next(); ok; _, ok = arr.Next() {
			n++
		}
		s = strconv.Itoa(n) + " todos"
	}
	if s == "" {
		s = pick(v.command, v.filePath, v.notebookPath, v.path, v.pattern, v.url, v.query, v.description, v.skill, v.prompt)
	}
	if s == "" && !o.Bad() && len(input) > 2 {
		s = string(input[:jsonscan.RuneCut(input, 4*foldkit.SummaryMax)]) // an unknown tool: its raw input, cut
	}
	return foldkit.OneLine(s, foldkit.SummaryMax)
}

// foldToolFiles lists the files a call writes: the file tools' path.
func foldToolFiles(name string, input []byte) []string {
	var key string
	switch name {
	case "Write", "Edit", "MultiEdit":
		key = "file_path"
	case "NotebookEdit":
		key = "notebook_path"
	default:
		return nil
	}
	if p := jsonscan.Str(jsonscan.Member(input, key)); p != "" {
		return []string{p}
	}
	return nil
}

// foldToolDetail gives the input text a chip shows when expanded, where
// the summary cannot hold it: a Bash command that is longer than one line
// or than the summary, the content a Write puts in its file. It is cut to
// foldkit.OutputMax bytes like an output.
func foldToolDetail(name string, input []byte) (detail string, truncated bool) {
	var key string
	switch name {
	case "Bash":
		key = "command"
	case "Write":
		key = "content"
	default:
		return "", false
	}
	raw := jsonscan.Member(input, key)
	s, full, ok := jsonscan.StringPrefix(raw, foldkit.OutputMax)
	if !ok || strings.TrimSpace(s) == "" {
		return "", false
	}
	if name == "Bash" && full <= foldkit.SummaryMax && !strings.Contains(strings.TrimSpace(s), "\n") {
		return "", false // the summary holds it all
	}
	return s, full > len(s)
}
