package claude

import (
	"lab/internal/clikit"
	"lab/internal/conv"
)

// The built-in slash commands of Claude Code, as its "/" menu lists them
// (name and description, in the menu's order: its local commands, then
// the skills it bundles), each with what lab does with it. Checked
// against the real menu of each verified version by TestMenuMatchesTable
// (commands_cli_test.go).
//
// What lab sends: commands that print their result into the transcript
// or start a model turn (the bundled skills are prompts), /clear (the run
// follows the new session), and the ones that act directly on an
// argument and open a picker without one (/model, /effort, /export,
// /rename, /goal: Required). The rest open screens (settings, pickers,
// side panels), change how the screen is drawn, or leave the session: lab
// lists them, refusing with the reason, and never types them.

// commands2_1_328 are 2.1.328's; 2.1.332 changed two descriptions. A
// per-CLI table: the rows are this CLI's menu; building a row, patching a
// version and picking the table are clikit's.
var commands2_1_328 = []conv.Command{
	clikit.Refused("add-dir", "Add a working directory", clikit.WhyScreen),
	clikit.Refused("auto-mode-setup", "Teach auto mode about your environment", clikit.WhyScreen),
	clikit.Refused("autocompact", "Set how full the context gets before auto-summarizing", clikit.WhyScreen),
	clikit.Refused("background", "Send this session to the background and free the terminal", clikit.WhyScreenMode),
	clikit.Refused("branch", "Create a branch of the current conversation at this point", clikit.WhyUnchecked),
	clikit.Refused("btw", "Ask a side question without interrupting Claude", clikit.WhyScreen),
	clikit.Refused("bug", "Report a bug or share your session", clikit.WhyUnchecked),
	clikit.Refused("cd", "Move this session to a new working directory", clikit.WhyUnchecked),
	clikit.Fresh("clear", "Start a new session with empty context; previous session stays on disk (resumable with /resume)"),
	clikit.Optional("color", "Set the prompt bar color for this session", "[color]"),
	clikit.Optional("compact", "Free up context by summarizing the conversation so far", "[instructions]"),
	clikit.Refused("config", "Open settings", clikit.WhyScreen),
	clikit.Run("context", "Show what fills the context"),
	clikit.Optional("copy", "Copy the last response to clipboard (/copy 2 for the one before)", "[n]"),
	clikit.Refused("diff", "Toggle the diff panel showing uncommitted changes", clikit.WhyScreen),
	clikit.Required("effort", "Set the model's effort level", "<level>"),
	clikit.Refused("exit", "Exit the CLI", clikit.WhyExit),
	clikit.Required("export", "Export this session to a file or clipboard", "<file>"),
	clikit.Run("fast", "Toggle fast mode"),
	clikit.Refused("feedback", "Send feedback to Anthropic or report a bug", clikit.WhyUnchecked),
	clikit.Refused("focus", "Toggle focus view: just your prompt, summary, and response", clikit.WhyScreenMode),
	clikit.Refused("fork", "Copy this conversation into a new background session and keep working here", clikit.WhyUnchecked),
	clikit.Required("goal", "Set a goal Claude checks before stopping", "<condition>"),
	clikit.Refused("help", "Show help and available commands", clikit.WhyScreen),
	clikit.Refused("hooks", "View hook configurations for tool events", clikit.WhyScreen),
	clikit.Refused("ide", "Manage IDE integrations and show status", clikit.WhyUnchecked),
	clikit.Refused("keybindings", "Open your keyboard shortcuts file", clikit.WhyEditor),
	clikit.Run("list-agents", "List subagents, teammates, and other Claude sessions you can message"),
	clikit.Refused("login", "Switch Anthropic accounts", clikit.WhyScreen),
	clikit.Refused("logout", "Sign out from your Anthropic account", clikit.WhyUnchecked),
	clikit.Refused("mcp", "Manage MCP servers", clikit.WhyScreen),
	clikit.Refused("memory", "Edit CLAUDE.md files and memory settings", clikit.WhyScreen),
	clikit.Refused("mobile", "Show QR code to download the Claude mobile app", clikit.WhyUnchecked),
	clikit.Required("model", "Switch model", "<model>"),
	clikit.Refused("output-style", "List output styles or switch to one", clikit.WhyUnchecked),
	clikit.Refused("permissions", "Manage allow and deny tool permission rules", clikit.WhyScreen),
	clikit.Optional("plan", "Turn on plan mode or view the plan", "[description]"),
	clikit.Refused("plugin", "Manage Claude Code plugins", clikit.WhyScreen),
	clikit.Refused("powerup", "Learn Claude Code features in short lessons", clikit.WhyUnchecked),
	clikit.Refused("radio", "Listen to Claude FM lo-fi radio", clikit.WhyUnchecked),
	clikit.Run("recap", "Generate a one-line session recap now"),
	clikit.Run("release-notes", "View release notes"),
	clikit.Run("reload-plugins", "Activate pending plugin changes in the current session"),
	clikit.Run("reload-skills", "Pick up skills added or changed on disk during this session"),
	clikit.Required("rename", "Rename the current conversation", "<name>"),
	clikit.Refused("resume", "Resume a previous session", clikit.WhyResume),
	clikit.Refused("rewind", "Restore earlier code, conversation, or both", clikit.WhyScreen),
	clikit.Refused("sandbox", "Show or configure the sandbox", clikit.WhyScreen),
	clikit.Refused("scroll-speed", "Adjust mouse wheel scroll speed", clikit.WhyUnchecked),
	clikit.Refused("skills", "List available skills", clikit.WhyScreen),
	clikit.Refused("status", "Show version, account, model, MCP servers, and setup warnings", clikit.WhyScreen),
	clikit.Refused("stickers", "Check Claude Code sticker availability", clikit.WhyUnchecked),
	clikit.Refused("subtask", "Send a subagent off with your full context; its result comes back here", clikit.WhyUnchecked),
	clikit.Refused("tasks", "View and manage everything running in the background", clikit.WhyUnchecked),
	clikit.Refused("terminal-setup", "Set up Shift+Enter for newlines", clikit.WhyUnchecked),
	clikit.Refused("theme", "Change the theme", clikit.WhyScreen),
	clikit.Refused("tui", "Set the terminal UI renderer (classic | fullscreen)", clikit.WhyScreenMode),
	clikit.Refused("usage", "Show session cost, plan usage, and activity stats", clikit.WhyScreen),
	clikit.Refused("workflows", "Browse running and completed workflows", clikit.WhyUnchecked),
	clikit.Optional("batch", "Plan a large change; background agents each open a PR", ""),
	clikit.Optional("claude-api", "Build and debug apps that use the Claude API", ""),
	clikit.Optional("code-review", "Review the current diff or a PR for bugs", ""),
	clikit.Optional("dataviz", "Chart and dashboard design guidance", ""),
	clikit.Optional("debug", "Turn on debug logging and investigate problems", ""),
	clikit.Optional("deep-research", "[dynamic workflow] Deep research harness — fan-out web searches, fetch sources, adversarially verify claims, synthesize a cited report.", ""),
	clikit.Optional("doctor", "Health-check your setup and fix issues: installation, unused extensions, duplicated or bloated memory files, slow hooks, updates, permissions", ""),
	clikit.Optional("fewer-permission-prompts", "Pre-approve safe read-only commands based on your usage", ""),
	clikit.Optional("init", "Initialize a new CLAUDE.md file with codebase documentation", ""),
	clikit.Optional("insights", "Generate a report analyzing your Claude Code sessions", ""),
	clikit.Optional("loop", "Repeat a prompt or command on an interval (e.g. /loop 5m /foo)", ""),
	clikit.Optional("plugin-authoring", "Write a mod: a live pane, view or behaviour change in Claude Code", ""),
	clikit.Optional("run", "Launch this project’s app to see your change working", ""),
	clikit.Optional("run-skill-generator", "Create a skill that knows how to run this project’s app", ""),
	clikit.Optional("security-review", "Complete a security review of the pending changes on the current branch", ""),
	clikit.Optional("simplify", "Clean up the changed code without changing behavior", ""),
	clikit.Optional("statusline", "Set up the status line", ""),
	clikit.Optional("team-onboarding", "Help teammates ramp on Claude Code with a guide from your usage", ""),
	clikit.Optional("update-config", "Change settings: hooks, permissions, environment variables", ""),
	clikit.Optional("verify", "Try your change and report if it works", ""),
	clikit.Optional("workflow-authoring", "Load the reference for writing Workflow tool scripts", ""),
}

var commandTables = []clikit.CommandTable{
	{Version: "2.1.328", Commands: commands2_1_328},
	{Version: "2.1.332", Commands: clikit.Patched(commands2_1_328, map[string]string{
		"clear": "Start a new session with empty context; loops carry over, and the old one stays in /resume",
		"tasks": "View and manage this session's background work",
	})},
}

// BuiltinCommands returns the built-in commands of CLI version v: those of
// the newest table at or below it.
func BuiltinCommands(v string) []conv.Command {
	return clikit.TableFor(commandTables, v, CompareVersions)
}
