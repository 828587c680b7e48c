package claude

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"

	"lab/internal/clikit"
	"lab/internal/conv"
	"lab/internal/jsonscan"
)

// This file is the permission prompt: the CLI asking the operator whether
// the agent may make one tool call ("Do you want to proceed?"). lab learns
// of it from the PermissionRequest hook (which carries the tool and its
// input but no tool_use id; the PreToolUse of the same call supplies that)
// and reads its options off the pane, by their labels, as seen on 2.1.328:
//
//	Bash:  1. Yes / 2. Yes, and don’t ask again for: <command> (or "always
//	       allow access to <dir> from this project") / 3. Yes, and switch to
//	       auto mode · … / 4. No          footer: Esc to cancel · Tab to amend
//	Edit, Write: 1. Yes / 2. Yes, and switch to accept edits (…) / 3. No
//	WebFetch: 1. Yes / 2. Yes, and don't ask again for <host> /
//	       3. No, and tell Claude what to do differently (esc)
//
// Tab on the plain "No" row turns it into "No, and tell Claude what to do
// differently", a text row; typed text shows as "No, <text>", and Enter
// records it as the denial's feedback (toolUseResult "…the user
// said:\n<text>", userFeedback). The WebFetch variant's row takes no text.

// PermissionDialog builds the pending permission dialog of a tool call
// from its hook payload: what is asked, readable on a phone. Its options
// are not known until the pane is read (dressPermission). File changes get
// a unified diff computed from the file on disk.
func PermissionDialog(toolID, tool string, input []byte) *conv.Dialog {
	p := &conv.Permission{Tool: tool, Options: []conv.PermissionOption{}}
	var in map[string]json.RawMessage
	_ = json.Unmarshal(input, &in)
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(in[k], &s)
		return s
	}
	switch tool {
	case "Bash":
		p.Command, p.Description = str("command"), str("description")
	case "Write":
		p.Path = str("file_path")
		p.Diff = writeDiff(p.Path, str("content"))
	case "Edit":
		p.Path = str("file_path")
		p.Diff = editDiff(p.Path, []fileEdit{{old: str("old_string"), new: str("new_string"), all: jsonscan.True(in["replace_all"])}})
	case "MultiEdit":
		p.Path = str("file_path")
		var edits []struct {
			Old string `json:"old_string"`
			New string `json:"new_string"`
			All bool   `json:"replace_all"`
		}
		_ = json.Unmarshal(in["edits"], &edits)
		fe := make([]fileEdit, len(edits))
		for i, e := range edits {
			fe[i] = fileEdit{old: e.Old, new: e.New, all: e.All}
		}
		p.Diff = editDiff(p.Path, fe)
	case "NotebookEdit":
		p.Path = str("notebook_path")
		p.Summary = clikit.Summary(in, "notebook_path")
	default:
		p.Summary = clikit.Summary(in)
	}
	return &conv.Dialog{ToolID: toolID, Kind: conv.DialogPermission, Permission: p, Answerable: true}
}

// permissionOptions reads a permission prompt's options from its rows by
// their labels. A row lab cannot tell the meaning of is RoleUnknown, which
// is never answered.
func permissionOptions(s *Screen) []conv.PermissionOption {
	var opts []conv.PermissionOption
	for _, r := range s.Rows {
		if r.Number <= 0 {
			continue
		}
		label := strings.Join(append([]string{r.Label}, r.More...), " ")
		o := conv.PermissionOption{Label: label, Role: optionRole(r.Label)}
		if o.Role == conv.RoleDeny {
			// The plain "No" takes text after Tab when the footer offers
			// it; the variants that already say "tell Claude" take none.
			o.Feedback = s.Amend && strings.TrimSpace(r.Label) == "No"
		}
		opts = append(opts, o)
	}
	return opts
}

// optionRoles name what a permission row does from its label (2.1.328).
var optionRoles = []clikit.RoleRule{
	{Label: "Yes", Role: conv.RoleAllowOnce},
	{Label: "Yes, and don't ask again", Prefix: true, Role: conv.RoleAllowAlways},
	{Label: "Yes, and always allow", Prefix: true, Role: conv.RoleAllowAlways},
	{Label: "Yes, and switch to ", Prefix: true, Role: conv.RoleSwitchMode},
	{Label: "No", Role: conv.RoleDeny},
	{Label: "No, and tell Claude what to do differently", Prefix: true, Role: conv.RoleDeny},
}

// optionRole names what a permission row does from its label.
func optionRole(label string) conv.OptionRole { return clikit.OptionRole(label, optionRoles) }

// dressPermission (this TUI's prompt: a title, feedback on "No"; Codex's
// differs) fills d's options, title and question from a pane that shows d's
// permission prompt, reporting whether it does. The prompt must be about d's
// call: a Bash prompt shows the command, a file prompt names the file, a
// fetch prompt the host.
func dressPermission(d *conv.Dialog, s *Screen) bool {
	p := d.Permission
	if p == nil || s.Kind != ScreenPermission || len(s.Rows) == 0 || !permissionShows(p, s) {
		return false
	}
	p.Title, p.Question = s.Title, s.Prompt
	p.Options = permissionOptions(s)
	return true
}

// permissionShows reports whether the prompt on s is about the call p.
func permissionShows(p *conv.Permission, s *Screen) bool {
	text := clikit.Squash(s.Prompt + strings.Join(s.Body, ""))
	switch {
	case p.Command != "":
		first, _, _ := strings.Cut(strings.TrimSpace(p.Command), "\n")
		if len(first) > 60 {
			first = first[:60]
		}
		return strings.Contains(text, clikit.Squash(first))
	case p.Path != "":
		return strings.Contains(text, clikit.Squash(filepath.Base(p.Path)))
	case p.Tool == "WebFetch":
		if u, err := url.Parse(summaryValue(p.Summary, "url")); err == nil && u.Hostname() != "" {
			return strings.Contains(text, clikit.Squash(u.Hostname()))
		}
	}
	return true
}

// summaryValue returns the value of key in a summary's "key: value" lines.
func summaryValue(summary, key string) string {
	for _, l := range strings.Split(summary, "\n") {
		if v, ok := strings.CutPrefix(l, key+": "); ok {
			return v
		}
	}
	return ""
}
