package codex

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"lab/internal/agent"
	"lab/internal/clikit"
	"lab/internal/conv"
)

// Provider is the Codex CLI as lab drives it (agent.Provider).
type Provider struct {
	// CodexHome is the CODEX_HOME the runs share ("" for the CLI's own
	// default, $CODEX_HOME or ~/.codex): where History looks, and what
	// runs get as CODEX_HOME when set.
	CodexHome string
	// Env is added to every run's environment (the demo's API key).
	Env map[string]string
	// Config are -c overrides given to every run (key=value, TOML).
	Config []string
}

// New returns the Codex provider over codexHome ("" for the default).
func New(codexHome string) Provider { return Provider{CodexHome: codexHome} }

var _ agent.Provider = Provider{}

// modes are the sandbox modes a run may choose, and Plan mode (in the
// workspace sandbox); every run asks for approval on request. Plan mode is
// not a start flag on 0.171.0: the run's opening enters it (planOpening).
var modes = []conv.PermissionMode{
	{Value: SandboxWorkspaceWrite, Label: "Workspace", Help: "edits files in the folder and runs commands in a sandbox; asks before anything beyond it"},
	{Value: SandboxReadOnly, Label: "Read only", Help: "reads freely; asks before any edit or command that writes"},
	{Value: SandboxFullAccess, Label: "Full access", Help: "no sandbox: edits and runs anything; asks only when the agent chooses to"},
	{Value: ModePlan, Label: "Plan first", Help: "plans in the workspace sandbox, then asks you to approve the plan"},
}

// Info names the provider and its modes. PromptOptional stays off: no
// test drives a Codex run started without a prompt, so the new-run form
// asks for one (the API still takes an empty prompt).
func (Provider) Info() conv.ProviderInfo {
	return conv.ProviderInfo{Name: Name, Label: "Codex", Modes: modes, DefaultMode: SandboxWorkspaceWrite, Resume: true, Attach: true,
		Attachments: true, SwitchModes: switchModes, Models: models}
}

// The methods from here on bind agent.Provider to this CLI: one-line
// calls into this package and clikit (a per-CLI binding, not shared logic).

// ResolveBin finds the codex binary: a path, or a name looked up in PATH
// ("codex" when bin is empty; the npm package's `codex` is a Node launcher
// of the same binary and works too). Its error says how to install it.
func (Provider) ResolveBin(bin string) (string, error) {
	return clikit.ResolveBin(bin, "codex", "install it (scripts/install-codex.sh) or set its path")
}

// Version asks the binary for its version (see CLIVersion).
func (Provider) Version(ctx context.Context, bin string) (string, error) {
	return CLIVersion(ctx, bin)
}

// VersionVerified reports whether lab was verified against version (see
// versions.go).
func (Provider) VersionVerified(version string) bool { return VersionVerified(version) }

// CheckStart validates the sandbox mode (the request's permission mode)
// and the model.
func (Provider) CheckStart(req conv.StartRequest, euid int) error {
	if req.PermissionMode != "" && req.PermissionMode != ModePlan && !ValidSandbox(req.PermissionMode) {
		return conv.Errorf(conv.EInvalid, "unknown mode %q for Codex; want one of %s, %s", req.PermissionMode, strings.Join(SandboxModes, ", "), ModePlan)
	}
	if req.Model != "" && !ValidModel(req.Model) {
		return conv.Errorf(conv.EInvalid, "invalid model name %q", req.Model)
	}
	if req.Resume != "" && !ValidSessionID(req.Resume) {
		return conv.Errorf(conv.EInvalid, "invalid session id %q to resume", req.Resume)
	}
	return nil
}

// Prepare makes the run's spool folder and returns the command line: the
// hooks as session flags spooling into RunDir/spool, the folder trusted
// for this process when asked, the sandbox and approval policy, and the
// first prompt's images (--image). Nothing is written into the operator's
// CODEX_HOME. A run in Plan mode gets its prompt typed by its opening,
// after the mode switch, its images attached by pasting their paths. The
// sandbox lets the agent read the uploads folder in every mode.
func (p Provider) Prepare(ctx context.Context, spec agent.Launch) (agent.Command, error) {
	spool := filepath.Join(spec.RunDir, "spool")
	if err := os.MkdirAll(spool, 0o700); err != nil {
		return agent.Command{}, conv.Wrap(conv.EInternal, err, "create the run's hook spool")
	}
	hooks, err := HookArgs(spool)
	if err != nil {
		return agent.Command{}, conv.Wrap(conv.EInternal, err, "the run's hook flags")
	}
	r := spec.Request
	images := clikit.ImagePaths(r.Files)
	o := SpawnOptions{Bin: spec.Bin, Sandbox: r.PermissionMode, Model: r.Model, Hooks: hooks, Config: p.Config, ResumeID: r.Resume, Prompt: r.Prompt, Images: images}
	var cmd agent.Command
	if r.PermissionMode == ModePlan {
		o.Sandbox, o.Prompt, o.Images = SandboxWorkspaceWrite, "", nil
		cmd.Opening = planOpening(r.Prompt, images)
	}
	if spec.SeedTrust {
		o.Trust = []string{spec.Cwd}
		if real, err := filepath.EvalSymlinks(spec.Cwd); err == nil && real != spec.Cwd {
			o.Trust = append(o.Trust, real)
		}
	}
	cmd.Argv = SpawnArgv(o)
	cmd.Env = maps.Clone(p.Env)
	if p.CodexHome != "" {
		if cmd.Env == nil {
			cmd.Env = map[string]string{}
		}
		cmd.Env["CODEX_HOME"] = p.CodexHome
	}
	return cmd, nil
}

// NewFold returns an empty rollout fold.
func (Provider) NewFold() agent.Fold { return NewFold() }

// OpenSide returns the reader of the run's hook spool (RunDir/spool).
func (Provider) OpenSide(runDir string) agent.Side {
	return OpenSpool(filepath.Join(runDir, "spool"))
}

// NewDriver returns the driver of the TUI. Recipes read the rows off the
// pane, so one driver serves every version whose labels lab knows.
func (Provider) NewDriver(cliVersion string) agent.Driver { return driver{} }

// Commands lists the built-in slash commands of version; 0.171.0 reads no
// custom ones (see commands.go), so home and cwd add nothing.
func (Provider) Commands(version, _, _ string) []conv.Command { return Commands(version) }

// NewHistory returns the sessions under the provider's CODEX_HOME, else
// under home/.codex.
func (p Provider) NewHistory(home string) agent.History {
	ch := p.CodexHome
	if ch == "" {
		ch = filepath.Join(home, ".codex")
	}
	return NewHistory(SessionsDir(ch))
}

// driver acts on the Codex TUI (agent.Driver).
type driver struct{}

func (driver) Recipe(d *conv.Dialog, a conv.Answer, capture string) ([]agent.Step, error) {
	return Recipe(d, a, capture)
}

func (driver) Intended(d *conv.Dialog, a conv.Answer) *conv.Outcome { return IntendedOutcome(d, a) }

func (driver) Rewind(capture string, fresh agent.Check) int {
	e, ok := fresh.(*Expect)
	if !ok {
		return 0
	}
	return rewindRows(ParseScreen(capture), e)
}

// Dress fills a plan's approval rows from the pane (0.171.0's rows when
// the pane does not show them) and reports whether the pane shows d's
// picker.
func (driver) Dress(d *conv.Dialog, capture string) bool {
	s := ParseScreen(capture)
	switch d.Kind {
	case conv.DialogPlan:
		rows := make([]string, 0, len(s.Rows))
		for _, r := range s.Rows {
			if planRoleOfLabel(r.Label) == PlanUnknown {
				rows = nil
				break
			}
			rows = append(rows, r.Label)
		}
		if s.Kind != ScreenPlan || len(rows) == 0 {
			d.PlanRows, d.PlanOptions = slices.Clone(DefaultPlanRows), planOptions(DefaultPlanRows)
			return false
		}
		d.PlanRows, d.PlanOptions = rows, planOptions(rows)
		return true
	case conv.DialogQuestion:
		return s.Kind == ScreenQuestion
	case conv.DialogPermission:
		return dressPermission(d, s)
	}
	return false
}

// Unannounced is the permission dialog of a running call no hook
// announced: a command, a patch (the files it names) or a summary.
func (driver) Unannounced(t *conv.ToolCall) *conv.Dialog {
	p := &conv.Permission{Tool: t.Name, Options: []conv.PermissionOption{}}
	switch t.Name {
	case ToolExecCommand, "local_shell":
		p.Command = t.Input
	case ToolApplyPatch:
		p.Path = t.Input
	default:
		p.Summary = t.Input
	}
	return &conv.Dialog{ToolID: t.ID, Kind: conv.DialogPermission, Permission: p, Answerable: true}
}

// busyHint is what the TUI shows while a turn runs and no text streams
// yet ("• Working (5s • esc to interrupt)"); a question picker's footer
// says it too, but a picker is recognised first.
const busyHint = "esc to interrupt"

// idleMarks start the line the TUI leaves right above the input box when
// no turn runs: a finished turn's "Worked for 3s • 10:42", an interrupt's
// notice. While text streams in, the box shows with no hint at all, so
// anything else above it counts as busy: the rollout records every turn's
// end, so a busy guess never hides an idle CLI for long, while an idle
// guess mid-turn would.
//
// A slash command that does not start a turn leaves its note there
// instead: the ones lab sends (steer.go) and the refusals they may get.
var idleMarks = []string{"Worked for ", "■ Conversation interrupted", "To get started", "/review", ">_ OpenAI Codex",
	"• Model changed to ", "• Permission selection requested: ", "• Service tier set to ", "■ Model '",
	"■ Unknown permission profile", "• Unrecognized command", "■ Could not generate"}

// Look says what the pane shows, for the live overlay.
func (driver) Look(capture string) agent.Look {
	switch ParseScreen(capture).Kind {
	case ScreenQuestion, ScreenPlan:
		return agent.Look{Kind: agent.LookPicker}
	case ScreenApproval:
		return agent.Look{Kind: agent.LookPermission}
	}
	if _, ok := ParsePrompt(capture); !ok {
		return agent.Look{Kind: agent.LookUnknown, Text: screenText(capture)}
	}
	if strings.Contains(capture, busyHint) {
		return agent.Look{Kind: agent.LookBusy}
	}
	if above := lineAboveBox(capture); above == "" || hasAnyPrefix(above, idleMarks) {
		return agent.Look{Kind: agent.LookPrompt}
	}
	return agent.Look{Kind: agent.LookBusy}
}

// boxLine is the input box's first line, -1 when none shows.
func boxLine(lines []string) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], cursorGlyph+" ") || lines[i] == cursorGlyph {
			return i
		}
	}
	return -1
}

// lineAboveBox is the last non-blank line above the input box, trimmed;
// "" when nothing is above it.
func lineAboveBox(capture string) string {
	lines := paneLines(capture)
	box := boxLine(lines)
	for i := box - 1; i >= 0; i-- {
		if t := strings.TrimSpace(lines[i]); t != "" {
			return t
		}
	}
	return ""
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// drawn is how the TUI draws a turn: below the echoed prompt, a block per
// thing the agent does, "• " first (see clikit.Drawn).
var drawn = clikit.Drawn{Echo: cursorGlyph + " ", Bullet: "• "}

// Drawing returns the agent's words the pane shows being written: the
// last block below the echoed prompt and above the input box, when it is
// text (not a command with its output under "└", nor the "Working" line),
// unwrapped, without the turn's closing "Worked for" line. "" when there
// is none. The TUI draws a streaming text word by word.
func (driver) Drawing(capture string) string {
	lines := paneLines(capture)
	box := boxLine(lines)
	if box < 0 || ParseScreen(capture).Kind != ScreenNone {
		return "" // no input box, or a picker's cursor row taken for it
	}
	block, ok := drawn.LastBlock(lines[:box])
	if !ok {
		return ""
	}
	for i, l := range block {
		t := strings.TrimSpace(l)
		if strings.Contains(t, busyHint) || (i > 0 && (strings.HasPrefix(t, "└") || strings.HasPrefix(t, "│"))) {
			return ""
		}
	}
	if n := len(block); n > 1 && strings.HasPrefix(strings.TrimSpace(block[n-1]), "Worked for ") {
		block = block[:n-1]
	}
	return clikit.Unwrap(block)
}

// screenText is a pane's text without blank lines, at most its last 16
// lines, for telling the operator what the CLI shows.
func screenText(capture string) string {
	var out []string
	for _, l := range strings.Split(capture, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			out = append(out, t)
		}
	}
	if len(out) > 16 {
		out = out[len(out)-16:]
	}
	return strings.Join(out, "\n")
}

// Gate accepts the folder-trust screen for cwd (see trustGate).
func (driver) Gate(capture, cwd string) (string, bool) { return trustGate(capture, cwd) }

func (driver) Prompt(capture string) (agent.PromptBox, bool) {
	b, ok := ParsePrompt(capture)
	return b, ok
}

// InterruptKey stops a turn; on a question or approval picker it declines
// (the turn is interrupted either way).
func (driver) InterruptKey() string { return "Escape" }

func (driver) Menu(capture string) (string, bool) { return Menu(capture) }

func (driver) Literal(text string) (string, error) { return Literal(text), nil }

func (driver) Settings(capture string) conv.Settings { return Settings(capture) }

func (driver) SwitchMode(mode, capture string) ([]agent.Move, error) {
	return SwitchMode(mode, capture)
}

func (driver) SwitchModel(model, _ string) ([]agent.Move, error) {
	return SwitchModel(model)
}

// ClearKeys: ctrl+c on a box holding text or images empties it (on an
// empty box it would offer to quit, hence only then; seen on 0.171.0).
func (driver) ClearKeys() []string { return []string{"C-c"} }

// Read returns what the spool says in the provider-neutral shape
// (agent.Side): the current session, the questions and the approval prompt
// announced and not resolved, the last prompt and turn end. An approval
// whose call no PreToolUse names is only Waiting: lab cannot aim an
// answer at it.
func (s *Spool) Read() (agent.SideState, error) {
	st, err := s.Refresh()
	out := st.Side(DialogFromTool)
	if p := st.Permission; p != nil && st.PermissionToolID != "" {
		out.Pending = append(out.Pending, s.permissionDialog(p, st.PermissionToolID))
	}
	if st.Permission != nil && st.PermissionToolID == "" {
		out.Waiting = st.Permission.File
	}
	if err != nil {
		return out, fmt.Errorf("codex spool: %w", err)
	}
	return out, nil
}
