package claudetest

import (
	"os"
	"path/filepath"

	"lab/internal/clitest"
	"lab/internal/fakeclaudeapi"
)

// permissionCaptures are the permission prompts of --permission-mode
// manual, answered each way at the terminal. They pin what the transcript
// records of a decision (permissionDecision, userFeedback) and the hook
// payloads of a prompt (PreToolUse of every tool, PermissionRequest).
var permissionCaptures = []captureCase{
	{
		name: "permission_allowed", mode: "manual", prompt: "lab:permission make a file", picker: "Do you want to proceed?",
		drive:  func(c *captureRun) { c.keys("Enter") },
		done:   echoed,
		expect: []string{`"permissionDecision":{"decision":"accept","source":"user_temporary"`},
	},
	{
		name: "permission_always", mode: "manual", prompt: "lab:twice go", picker: "Do you want to proceed?",
		drive: func(c *captureRun) { c.keys("Down", "Enter") },
		done:  echoed,
		// The second identical call runs without a prompt, by the rule
		// the first answer saved.
		expect: []string{`"source":"user_permanent"`, `"source":"config"`},
	},
	{
		name: "permission_denied_feedback", mode: "manual", prompt: "lab:permission make a file", picker: "Do you want to proceed?",
		drive: func(c *captureRun) {
			c.keys("Down", "Down", "Down", "Tab")
			c.settled("No, and tell Claude what to do differently")
			c.paste("Use mkdir instead")
			c.keys("Enter")
		},
		done:   clitest.Has(`tool_result (error) for Bash`, `"turn_duration"`),
		expect: []string{`"userFeedback":"Use mkdir instead"`, `"decision":"reject","source":"user_reject"`, `"toolDenialKind":"user-rejected"`},
	},
	{
		name: "permission_declined", mode: "manual", prompt: "lab:permission make a file", picker: "Do you want to proceed?",
		drive:  func(c *captureRun) { c.keys("Escape") },
		done:   clitest.Has(`[Request interrupted by user for tool use]`),
		expect: []string{`"toolUseResult":"User rejected tool use"`, `"toolDenialKind":"user-rejected"`},
	},
	{
		name: "permission_edit", mode: "manual", prompt: "lab:edit go", picker: "Do you want to make this edit to",
		setup: func(work string) error {
			return os.WriteFile(filepath.Join(work, fakeclaudeapi.EditFile), []byte(fakeclaudeapi.EditBefore+"\n"), 0o644)
		},
		drive:  func(c *captureRun) { c.keys("Enter") },
		done:   echoed,
		expect: []string{`"name":"Edit"`, `"source":"user_temporary"`},
	},
}
