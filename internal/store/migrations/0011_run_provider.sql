-- Runs name the agent CLI they run: "claude" for every run made before
-- lab knew more than one. claude_bin keeps its name but holds the binary
-- of whichever CLI the run uses.
ALTER TABLE runs ADD COLUMN provider TEXT NOT NULL DEFAULT 'claude';
