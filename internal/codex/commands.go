package codex

import (
	"lab/internal/clikit"
	"lab/internal/conv"
)

// The built-in slash commands of the Codex CLI, as its "/" menu lists
// them (name and description, in the menu's order), each with what lab
// does with it; checked against the real menu by TestMenuMatchesTable
// (codextest). lab sends the commands that print their result or start a
// turn, /new and /clear (a new session, which the run follows once its
// first turn starts), and /model, /permissions and /rename with their
// argument (alone they open pickers); it lists the rest, refusing them
// with the reason.
//
// 0.171.0 reads no custom prompts: a Markdown file in $CODEX_HOME/prompts
// is not in the menu, and "/prompts:<name>" is an unrecognized command
// (its reusable prompts are numbered presets in config.toml, recalled by
// a key, not by a slash command). So a Codex run offers only these.
//
// A per-CLI table: the rows are this CLI's menu; building a row and
// picking the table are clikit's.
var commands0_171_0 = []conv.Command{
	clikit.Required("model", "choose what model and reasoning effort to use", "<model>"),
	clikit.Run("fast", "1.5x speed, increased usage"),
	clikit.Refused("presets", "run or save reusable prompts and slash commands", clikit.WhyScreen),
	clikit.Refused("ide", "include current selection, open files, and other context from your IDE", clikit.WhyUnchecked),
	clikit.Required("permissions", "choose what Codex is allowed to do", "<:read-only|:workspace|:danger-full-access>"),
	clikit.Refused("keymap", "remap TUI shortcuts", clikit.WhyUnchecked),
	clikit.Refused("vim", "toggle Vim mode for the composer", clikit.WhyScreenMode),
	clikit.Refused("experimental", "toggle experimental features", clikit.WhyUnchecked),
	clikit.Refused("approve", "approve one retry of a recent auto-review denial", clikit.WhyUnchecked),
	clikit.Refused("memories", "configure memory use and generation", clikit.WhyUnchecked),
	clikit.Refused("skills", "use skills to improve how Codex performs specific tasks", clikit.WhyUnchecked),
	clikit.Refused("import", "import setup, this project, and recent chats from Claude Code", clikit.WhyUnchecked),
	clikit.Refused("hooks", "view and manage lifecycle hooks", clikit.WhyUnchecked),
	clikit.Refused("review", "review my current changes and find issues", clikit.WhyScreen),
	clikit.Required("rename", "rename the current thread", "<name>"),
	clikit.Fresh("new", "start a new chat during a conversation"),
	clikit.Refused("archive", "archive this session", clikit.WhyUnchecked),
	clikit.Refused("delete", "permanently delete this session", clikit.WhyUnchecked),
	clikit.Refused("resume", "resume a saved chat", clikit.WhyResume),
	clikit.Refused("fork", "fork the current chat", clikit.WhyResume),
	clikit.Refused("worktree", "start or continue a conversation in a new worktree", clikit.WhyUnchecked),
	clikit.Run("init", "create an AGENTS.md file with instructions for Codex"),
	clikit.Run("compact", "summarize conversation to prevent hitting the context limit"),
	clikit.Refused("config", "configure Codex preferences", clikit.WhyUnchecked),
	clikit.Run("recap", "summarize the current conversation now"),
	clikit.Optional("plan", "switch to Plan mode", "[prompt]"),
	clikit.Refused("voice", "start or stop voice; use /voice settings to choose a voice", clikit.WhyUnchecked),
	clikit.Refused("goal", "set or view the goal for a long-running task", clikit.WhyUnchecked),
	clikit.Refused("agents", "open the agent command center", clikit.WhyUnchecked),
	clikit.Refused("side", "start a side conversation", clikit.WhyUnchecked),
	clikit.Refused("copy", "copy the last response or part of it", clikit.WhyScreen),
	clikit.Refused("export", "export the conversation as markdown", clikit.WhyScreen),
	clikit.Refused("raw", "toggle raw scrollback mode for copy-friendly terminal selection", clikit.WhyScreenMode),
	clikit.Refused("tui", "choose the TUI mode for the next launch", clikit.WhyScreenMode),
	clikit.Refused("diff", "show git diff (including untracked files)", clikit.WhyScreen),
	clikit.Refused("mention", "mention a file", clikit.WhyUnchecked),
	clikit.Run("status", "show current session configuration and token usage"),
	clikit.Refused("daemon", "Manage the local background server", clikit.WhyUnchecked),
	clikit.Refused("rc", "manage remote control for the local background server", clikit.WhyUnchecked),
	clikit.Refused("warnings", "view retained warnings and diagnostic details", clikit.WhyUnchecked),
	clikit.Refused("cd", "change the current working directory", clikit.WhyUnchecked),
	clikit.Run("pwd", "show the current working directory"),
	clikit.Refused("title", "configure which items appear in the terminal title", clikit.WhyUnchecked),
	clikit.Refused("statusline", "configure which items appear in the status line", clikit.WhyUnchecked),
	clikit.Refused("theme", "choose a syntax highlighting theme", clikit.WhyUnchecked),
	clikit.Refused("pets", "choose or hide the terminal pet", clikit.WhyUnchecked),
	clikit.Refused("mcp", "list MCP tools; /mcp verbose or /mcp login <name> [--environment <id>]", clikit.WhyUnchecked),
	clikit.Refused("logout", "log out of Codex", clikit.WhyUnchecked),
	clikit.Refused("exit", "exit Codex", clikit.WhyExit),
	clikit.Refused("feedback", "send logs to maintainers or save a ZIP", clikit.WhyUnchecked),
	clikit.Refused("ps", "list background terminals", clikit.WhyUnchecked),
	clikit.Refused("stop", "stop all background terminals", clikit.WhyUnchecked),
	clikit.Fresh("clear", "clear the terminal and start a new chat"),
	clikit.Refused("subagents", "switch between this session's subagents", clikit.WhyUnchecked),
}

var commandTables = []clikit.CommandTable{{Version: "0.171.0", Commands: commands0_171_0}}

// Commands lists the slash commands a run of CLI version v offers: the
// built-in ones of the newest table at or below it.
func Commands(v string) []conv.Command {
	return clikit.TableFor(commandTables, v, clikit.CompareVersions)
}
