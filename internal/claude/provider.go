package claude

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"lab/internal/agent"
	"lab/internal/clikit"
	"lab/internal/conv"
)

// Name is the provider id runs of the Claude Code CLI carry.
const Name = "claude"

// Provider is the Claude Code CLI as lab drives it (agent.Provider).
type Provider struct{}

// New returns the Claude Code provider.
func New() Provider { return Provider{} }

var _ agent.Provider = Provider{}

// modes are the permission modes `claude --help` lists on 2.1.328, the
// CLI's own default (auto) first. bypassPermissions is left out: the CLI
// refuses it as root, and it turns every safeguard off, which lab does not
// offer from a phone (the API still accepts it when not root).
var modes = []conv.PermissionMode{
	{Value: "auto", Label: "Auto", Help: "the CLI's default: it decides which actions need your approval"},
	{Value: "manual", Label: "Manual", Help: "asks before running commands and editing files"},
	{Value: "default", Label: "Default", Help: "the older name of manual: asks before commands and edits"},
	{Value: "acceptEdits", Label: "Accept edits", Help: "edits files without asking; asks before running commands"},
	{Value: "plan", Label: "Plan first", Help: "reads and plans only, then asks you to approve the plan"},
	{Value: "dontAsk", Label: "Don't ask", Help: "never asks: actions not already allowed are refused"},
}

// Info names the provider and its permission modes.
func (Provider) Info() conv.ProviderInfo {
	// Started without a prompt, the CLI waits at its input box for the
	// first message (runs tests start such runs).
	return conv.ProviderInfo{Name: Name, Label: "Claude Code", Modes: modes, DefaultMode: "auto", Resume: true, Attach: true, PromptOptional: true,
		Attachments: true, SwitchModes: switchModes, Models: models}
}

// The methods from here on bind agent.Provider to this CLI: one-line
// calls into this package and clikit (a per-CLI binding, not shared logic).

// ResolveBin finds the claude binary: a path, or a name looked up in PATH
// ("claude" when bin is empty). Its error says how to install the CLI.
func (Provider) ResolveBin(bin string) (string, error) {
	return clikit.ResolveBin(bin, "claude", "install it (scripts/install-claude.sh) or set its path (--claude-bin)")
}

// Version asks the binary for its version (see CLIVersion).
func (Provider) Version(ctx context.Context, bin string) (string, error) {
	return CLIVersion(ctx, bin)
}

// VersionVerified reports whether version lies in the verified range (see
// versions.go).
func (Provider) VersionVerified(version string) bool { return VersionVerified(version) }

// CheckStart validates the permission mode and the model.
func (Provider) CheckStart(req conv.StartRequest, euid int) error {
	if req.PermissionMode != "" {
		if !ValidPermissionMode(req.PermissionMode) {
			return conv.Errorf(conv.EInvalid, "unknown permission mode %q; want one of %s", req.PermissionMode, strings.Join(PermissionModes, ", "))
		}
		// The CLI refuses this mode as root and exits at once, which would
		// look like a run that died for no reason.
		if req.PermissionMode == "bypassPermissions" && euid == 0 {
			return conv.Errorf(conv.EInvalid, "permission mode bypassPermissions cannot be used when lab runs as root (Claude Code refuses it)")
		}
	}
	if req.Model != "" && !ValidModel(req.Model) {
		return conv.Errorf(conv.EInvalid, "invalid model name %q", req.Model)
	}
	if req.Resume != "" && !ValidSessionID(req.Resume) {
		return conv.Errorf(conv.EInvalid, "invalid session id %q to resume", req.Resume)
	}
	return nil
}

// Prepare writes the run's settings (hooks spooling into RunDir/spool, a
// rule letting the agent read the uploads folder, so an attached file
// reads without a permission prompt), seeds folder trust when asked, and
// returns the command line. A first prompt with images is typed by the
// run's opening.
func (Provider) Prepare(ctx context.Context, spec agent.Launch) (agent.Command, error) {
	settings := filepath.Join(spec.RunDir, "settings.json")
	var readable []string
	if spec.Uploads != "" {
		readable = append(readable, spec.Uploads)
	}
	if err := WriteHookSettings(settings, filepath.Join(spec.RunDir, "spool"), readable...); err != nil {
		return agent.Command{}, conv.Wrap(conv.EInternal, err, "write the run's hook settings")
	}
	if spec.SeedTrust {
		if err := trustAll(ClaudeJSONPath(spec.Home), spec.Cwd); err != nil {
			return agent.Command{}, conv.Wrap(conv.EInternal, err, "could not mark "+spec.Cwd+" as a trusted folder in ~/.claude.json")
		}
	}
	r := spec.Request
	o := SpawnOptions{Bin: spec.Bin, Settings: settings, Model: r.Model, PermissionMode: r.PermissionMode, Resume: r.Resume, Prompt: r.Prompt}
	var cmd agent.Command
	if images := clikit.ImagePaths(r.Files); len(images) > 0 {
		// No start flag takes an image: the opening pastes each path
		// into the input box (an [Image #n] attachment), then the prompt.
		o.Prompt = ""
		cmd.Opening = agent.PromptSteps(readPrompt, images, r.Prompt)
	}
	cmd.Argv = SpawnArgv(o)
	return cmd, nil
}

// readPrompt is ParsePrompt as an agent.PromptReader.
func readPrompt(capture string) (agent.PromptBox, bool) { return ParsePrompt(capture) }

// trustAll seeds folder trust for cwd under both its given and its
// resolved path: the CLI keys projects by the directory it finds itself in.
func trustAll(path, cwd string) error {
	if err := TrustFolder(path, cwd); err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(cwd); err == nil && real != cwd {
		return TrustFolder(path, real)
	}
	return nil
}

// NewFold returns an empty transcript fold.
func (Provider) NewFold() agent.Fold { return NewFold() }

// OpenSide returns the reader of the run's hook spool (RunDir/spool).
func (Provider) OpenSide(runDir string) agent.Side {
	return OpenSpool(filepath.Join(runDir, "spool"))
}

// NewDriver returns the driver of a CLI of the given version.
func (Provider) NewDriver(cliVersion string) agent.Driver {
	return driver{geom: PlanPicker(cliVersion), version: cliVersion}
}

// Commands lists the slash commands of version in cwd (see Commands).
func (Provider) Commands(version, home, cwd string) []conv.Command {
	return Commands(version, home, cwd)
}

// NewHistory returns the sessions under home/.claude/projects.
func (Provider) NewHistory(home string) agent.History {
	return NewHistory(filepath.Join(home, ".claude", "projects"))
}

// driver acts on the TUI of one CLI version (agent.Driver).
type driver struct {
	geom    PlanGeometry
	version string
}

func (d driver) Recipe(dlg *conv.Dialog, a conv.Answer, capture string) ([]agent.Step, error) {
	return Recipe(dlg, a, d.geom)
}

func (d driver) Intended(dlg *conv.Dialog, a conv.Answer) *conv.Outcome {
	if dlg != nil && dlg.Kind == conv.DialogPlan && len(dlg.PlanRows) == 0 {
		c := *dlg
		c.PlanRows = d.geom.Rows
		dlg = &c
	}
	return IntendedOutcome(dlg, a)
}

func (d driver) Rewind(capture string, fresh agent.Check) int {
	e, ok := fresh.(*Expect)
	if !ok {
		return 0
	}
	return rewindRows(ParseScreen(capture), e, d.geom)
}

func (d driver) Dress(dlg *conv.Dialog, capture string) bool {
	scr := ParseScreen(capture)
	switch dlg.Kind {
	case conv.DialogPlan:
		var rows []string
		if scr.Kind == ScreenPlan {
			for _, r := range scr.Rows {
				if r.Number > 0 {
					rows = append(rows, r.Label)
				}
			}
		}
		if len(rows) == 0 {
			// Not on screen (yet): the rows this version shows.
			dlg.PlanRows, dlg.PlanOptions = slices.Clone(d.geom.Rows), planOptions(d.geom.Rows)
			return false
		}
		dlg.PlanRows, dlg.PlanOptions = rows, planOptions(rows)
		return true
	case conv.DialogQuestion:
		return scr.Kind == ScreenQuestion || scr.Kind == ScreenReview
	case conv.DialogPermission:
		return dressPermission(dlg, scr)
	}
	return false
}

// Unannounced is the permission dialog of a running call no hook
// announced, from what the fold kept of its input: a Bash command, the
// path a file tool changes, or a summary of anything else.
func (driver) Unannounced(t *conv.ToolCall) *conv.Dialog {
	p := &conv.Permission{Tool: t.Name, Options: []conv.PermissionOption{}}
	switch t.Name {
	case "Bash":
		p.Command = t.Input
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		p.Path = t.Input
	default:
		p.Summary = t.Input
	}
	return &conv.Dialog{ToolID: t.ID, Kind: conv.DialogPermission, Permission: p, Answerable: true}
}

// busyHint is what the TUI's status line shows while the agent works.
const busyHint = "esc to interrupt"

func (driver) Look(capture string) agent.Look {
	switch ParseScreen(capture).Kind {
	case ScreenQuestion, ScreenReview, ScreenPlan:
		return agent.Look{Kind: agent.LookPicker}
	case ScreenPermission:
		return agent.Look{Kind: agent.LookPermission}
	}
	if _, ok := ParsePrompt(capture); ok {
		if strings.Contains(capture, busyHint) {
			return agent.Look{Kind: agent.LookBusy, Warning: Retrying(capture)}
		}
		return agent.Look{Kind: agent.LookPrompt}
	}
	return agent.Look{Kind: agent.LookUnknown, Text: screenText(capture)}
}

// Drawing returns the agent's words the pane shows being written (see
// Drawing).
func (driver) Drawing(capture string) string { return Drawing(capture) }

// screenText is a pane's text without blank lines and rules, at most its
// last screenTextLines lines, for telling the operator what the CLI shows.
func screenText(capture string) string {
	var out []string
	for _, l := range strings.Split(capture, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || isSeparator(t) || isDashedRule(t) {
			continue
		}
		out = append(out, t)
	}
	if len(out) > screenTextLines {
		out = out[len(out)-screenTextLines:]
	}
	return strings.Join(out, "\n")
}

const screenTextLines = 16

func (driver) Gate(capture, cwd string) (string, bool) {
	return trustGate(capture, cwd)
}

func (driver) Prompt(capture string) (agent.PromptBox, bool) {
	b, ok := ParsePrompt(capture)
	return b, ok
}

func (driver) InterruptKey() string { return "Escape" }

func (driver) Menu(capture string) (string, bool) { return Menu(capture) }

func (d driver) Literal(text string) (string, error) { return Literal(d.version, text) }

// Settings are the mode the footer names; the screen does not show the
// model.
func (driver) Settings(capture string) conv.Settings {
	return conv.Settings{Mode: footerMode(capture)}
}

func (driver) SwitchMode(mode, capture string) ([]agent.Move, error) {
	return SwitchMode(mode, capture)
}

func (driver) SwitchModel(model, _ string) ([]agent.Move, error) {
	return SwitchModel(model)
}

// ClearKeys: a first Escape on a box holding text shows "esc again to
// clear", a second within a moment empties it, attached images included
// (seen on 2.1.332; on an empty box two Escapes open the rewind picker,
// hence only on a box that holds something).
func (driver) ClearKeys() []string { return []string{"Escape", "Escape"} }

// rewindRows is how many Up keys bring the cursor back to row 1 when
// someone moved it at the terminal but changed nothing else: the screen
// is the fresh checkpoint's picker with the cursor on another row, nothing
// ticked and nothing typed. Anything else is 0, left for the fresh
// checkpoint to judge. It climbs exactly as many rows as the pane shows
// above the cursor, so Up never wraps.
func rewindRows(s *Screen, fresh *Expect, g PlanGeometry) int {
	if fresh.Check(s) == nil || s.Kind != fresh.Kind || s.Kind == ScreenReview {
		return 0
	}
	if fresh.Question != "" && !clikit.SameText(s.Question, fresh.Question) {
		return 0
	}
	if fresh.Rows > 0 && s.Numbered() != fresh.Rows {
		return 0
	}
	up := -1
	for i, r := range s.Rows {
		if r.Box == Checked {
			return 0
		}
		if r.Cursor {
			up = i
		}
	}
	if up <= 0 || !freeTextUntouched(s, g) {
		return 0
	}
	return up
}

// freeTextUntouched reports whether the picker's free-text row still shows
// its placeholder: the row before "Chat about this" on a question, the
// feedback row on a plan.
func freeTextUntouched(s *Screen, g PlanGeometry) bool {
	if s.Kind == ScreenPlan {
		f := g.Feedback
		return f < len(s.Rows) && s.Rows[f].Label == g.Rows[f]
	}
	n := s.Numbered()
	for _, r := range s.Rows {
		if r.Number == n-1 {
			return strings.HasPrefix(r.Label, "Type something")
		}
	}
	return false
}

// Shown is the box's text (agent.PromptBox).
func (b PromptBox) Shown() string { return b.Text }

// Read returns what the spool says in the provider-neutral shape
// (agent.Side): the current session, the dialogs announced and not
// resolved, the last prompt and turn end, and a pending permission
// notification.
func (s *Spool) Read() (agent.SideState, error) {
	st, err := s.Refresh()
	out := st.Side(DialogFromTool)
	for _, a := range st.Asks {
		out.Pending = append(out.Pending, s.permissionDialog(a))
	}
	if n := st.LastNotification; n != nil && n.NotificationType == "permission_prompt" {
		out.Waiting = n.File
	}
	if err != nil {
		return out, fmt.Errorf("claude spool: %w", err)
	}
	return out, nil
}
