package codex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// Tool approval prompts. The rollout never records them: the CLI draws the
// prompt, fires the PermissionRequest hook, and the rollout only shows the
// call running and, later, its output (or "aborted by user" when denied).
// So a permission dialog is built from the hook payload and dressed from
// the pane, which alone lists the options.
//
// conv has no permission dialog kind yet; Permission is what the Codex
// adapter knows, in neutral words, for the lead to map onto it.

// PermissionRole is what an approval prompt's option does.
type PermissionRole string

const (
	AllowOnce   PermissionRole = "allow_once"   // "Yes, proceed (y)"
	AllowAlways PermissionRole = "allow_always" // "Yes, and don't ask again for … (p|a)"
	Deny        PermissionRole = "deny"         // "No, and tell Codex what to do differently (esc)": interrupts the turn
	RoleUnknown PermissionRole = ""
)

// PermissionOption is one option of an approval prompt as the pane shows
// it.
type PermissionOption struct {
	Label string         `json:"label"`
	Role  PermissionRole `json:"role"`
	Key   string         `json:"key,omitempty"` // the shortcut the row shows: y, p, a, esc
}

// Permission is a pending tool approval.
type Permission struct {
	// ToolID is the call id of the tool waiting for approval (from the
	// PreToolUse hook that preceded it, else the fold's running tool).
	ToolID string `json:"tool_id"`
	// Tool is the tool's name as the model called it: exec_command,
	// apply_patch, …
	Tool string `json:"tool"`
	// Commands: the command line and the agent's reason for asking.
	Command     string `json:"command,omitempty"`
	Description string `json:"description,omitempty"`
	// File edits: one entry per file the patch touches.
	Files []PermissionFile `json:"files,omitempty"`
	// Summary is one line for any tool.
	Summary string `json:"summary"`
	// Options are the prompt's rows, in order, once read off the pane.
	Options []PermissionOption `json:"options,omitempty"`
}

// PermissionFile is one file of a file edit awaiting approval.
type PermissionFile struct {
	Path string `json:"path"`
	Op   string `json:"op"`   // add, update, delete
	Diff string `json:"diff"` // unified diff, computed by lab
}

// roleOfLabel maps an approval row's label to its role by the words that
// lead it (0.171.0); anything else is unknown and lab will not choose it.
func roleOfLabel(label string) PermissionRole {
	switch {
	case strings.HasPrefix(label, "Yes, proceed"):
		return AllowOnce
	case strings.HasPrefix(label, "Yes, and don't ask again"), strings.HasPrefix(label, "Yes, and don’t ask again"):
		return AllowAlways
	case strings.HasPrefix(label, "No, and tell Codex"):
		return Deny
	}
	return RoleUnknown
}

// hookToolBash is the name the hooks give exec_command (Claude Code's
// name for its shell tool, for hook compatibility).
const hookToolBash = "Bash"

// PermissionFromHook builds the pending approval a PermissionRequest
// payload describes: tool_name "Bash" with tool_input {command,
// description} for a command, "apply_patch" with the patch as
// tool_input.command for a file edit. cwd resolves relative paths; read
// returns a file's content for the diff (nil reads the disk).
func PermissionFromHook(toolName string, input json.RawMessage, cwd string, read func(string) (string, error)) *Permission {
	var in struct {
		Command     string `json:"command"`
		Description string `json:"description"`
	}
	_ = json.Unmarshal(input, &in)
	if read == nil {
		read = readFile
	}
	p := &Permission{Tool: toolName}
	switch toolName {
	case hookToolBash:
		p.Tool = ToolExecCommand
		p.Command, p.Description = in.Command, in.Description
		p.Summary = foldOneLine(in.Command, foldSummaryMax)
	case ToolApplyPatch:
		for _, f := range ParsePatch(in.Command) {
			abs := func(path string) string {
				if path != "" && !filepath.IsAbs(path) && cwd != "" {
					return filepath.Join(cwd, path)
				}
				return path
			}
			g := f
			g.Path, g.MoveTo = abs(f.Path), abs(f.MoveTo)
			p.Files = append(p.Files, PermissionFile{Path: g.Path, Op: string(f.Op), Diff: PatchDiff(g, read)})
		}
		p.Summary = foldOneLine(patchSummary(in.Command), foldSummaryMax)
	default:
		p.Summary = foldOneLine(string(input), foldSummaryMax)
	}
	return p
}

// maxDiffFile bounds the file lab reads to diff an edit against.
const maxDiffFile = 4 << 20

func readFile(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if fi.Size() > maxDiffFile {
		return "", os.ErrInvalid
	}
	b, err := os.ReadFile(path)
	return string(b), err
}

// Dress fills in the options from a pane that shows this approval,
// reporting false when the pane shows no approval prompt, or one lab
// cannot map (an option of unknown role).
func (p *Permission) Dress(capture string) bool {
	s := ParseScreen(capture)
	if s.Kind != ScreenApproval {
		return false
	}
	opts := make([]PermissionOption, 0, len(s.Rows))
	for _, r := range s.Rows {
		role := roleOfLabel(r.Label)
		if role == RoleUnknown {
			return false
		}
		opts = append(opts, PermissionOption{Label: r.Label, Role: role, Key: r.Key})
	}
	p.Options = opts
	return true
}
