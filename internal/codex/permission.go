package codex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"lab/internal/clikit"
	"lab/internal/conv"
)

// Tool approval prompts. The rollout never records them: the CLI draws the
// prompt and fires the PermissionRequest hook, and the rollout only shows
// the call running and, later, its output (or "aborted by user" when
// denied). So a permission dialog is built from the hook payload and
// dressed from the pane, which alone lists the options, as seen on
// 0.171.0:
//
//	Would you like to run the following command?
//	  Reason: <the agent's justification>
//	  $ <command>
//	› 1. Yes, proceed (y)
//	  2. Yes, and don't ask again for commands that start with `…` (p)
//	  3. No, and tell Codex what to do differently (esc)
//
// A file edit asks "Would you like to make the following edits?" (with
// Destination: <path>) and offers "… don't ask again for these files (a)".
// The denying row interrupts the turn; what to do differently is the
// operator's next prompt, so it takes no feedback of its own here.

// hookToolBash is the name the hooks give exec_command (Claude Code's name
// for its shell tool, for hook compatibility).
const hookToolBash = "Bash"

// PermissionDialog builds the pending permission dialog of a call from its
// PermissionRequest payload: a command with the agent's reason, or the
// files a patch touches with a unified diff lab computes against the files
// on disk (read; nil reads the disk), relative paths resolved from cwd.
// Its options are not known until the pane is read (Dress).
func PermissionDialog(callID, hookTool string, input json.RawMessage, cwd string, read func(string) (string, error)) *conv.Dialog {
	var in struct {
		Command     string `json:"command"`
		Description string `json:"description"`
	}
	_ = json.Unmarshal(input, &in)
	if read == nil {
		read = readFile
	}
	p := &conv.Permission{Tool: hookTool, Options: []conv.PermissionOption{}}
	switch hookTool {
	case hookToolBash:
		p.Tool = ToolExecCommand
		p.Command, p.Description = in.Command, in.Description
	case ToolApplyPatch:
		var paths, diffs []string
		for _, f := range ParsePatch(in.Command) {
			f.Path, f.MoveTo = absFrom(cwd, f.Path), absFrom(cwd, f.MoveTo)
			paths = append(paths, f.Path)
			diffs = append(diffs, PatchDiff(f, read))
		}
		p.Path = strings.Join(paths, ", ")
		p.Diff = strings.Join(diffs, "\n")
	default:
		p.Summary = summarize(input)
	}
	return &conv.Dialog{ToolID: callID, Kind: conv.DialogPermission, Permission: p, Answerable: true}
}

func absFrom(cwd, path string) string {
	if path != "" && !filepath.IsAbs(path) && cwd != "" {
		return filepath.Join(cwd, path)
	}
	return path
}

// summarize renders a tool input object as "key: value" lines (see
// clikit.Summary); anything else as it is.
func summarize(input json.RawMessage) string {
	var in map[string]json.RawMessage
	if json.Unmarshal(input, &in) != nil {
		return string(input)
	}
	return clikit.Summary(in)
}

// maxDiffFile bounds the file lab reads to diff an edit against.
const maxDiffFile = 4 << 20

func readFile(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxDiffFile {
		return "", os.ErrInvalid
	}
	b, err := os.ReadFile(path)
	return string(b), err
}

// optionRoles map an approval row's label to its role by the words that
// lead it (0.171.0); anything else is unknown, and lab will not choose it.
var optionRoles = []clikit.RoleRule{
	{Label: "Yes, proceed", Prefix: true, Role: conv.RoleAllowOnce},
	{Label: "Yes, and don't ask again", Prefix: true, Role: conv.RoleAllowAlways},
	{Label: "No, and tell Codex", Prefix: true, Role: conv.RoleDeny},
}

// roleOfLabel maps an approval row's label to its role (optionRoles).
func roleOfLabel(label string) conv.OptionRole { return clikit.OptionRole(label, optionRoles) }

// dressPermission (this TUI's prompt, whose rows take no feedback; Claude
// Code's differs) fills in a permission dialog's question and options from a
// pane that shows its approval prompt, reporting false when the pane shows
// no approval prompt or one for another call.
func dressPermission(d *conv.Dialog, s *Screen) bool {
	p := d.Permission
	if p == nil || s.Kind != ScreenApproval || len(s.Rows) == 0 || !approvalShows(p, s) {
		return false
	}
	p.Question = s.Prompt
	p.Options = make([]conv.PermissionOption, 0, len(s.Rows))
	for _, r := range s.Rows {
		p.Options = append(p.Options, conv.PermissionOption{Label: r.Label, Role: roleOfLabel(r.Label)})
	}
	return true
}

// approvalShows reports whether the approval prompt on s is about p: the
// same command, or an edit of the same file.
func approvalShows(p *conv.Permission, s *Screen) bool {
	switch p.Tool {
	case ToolExecCommand:
		return s.Command != "" && clikit.SameText(s.Command, p.Command)
	case ToolApplyPatch:
		dest := s.Fields["Destination"]
		return strings.HasPrefix(s.Prompt, "Would you like to make") && (dest == "" || strings.Contains(p.Path, dest))
	}
	return true
}
