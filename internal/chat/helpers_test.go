package chat

import (
	"lab/internal/agent"
	"lab/internal/claude"
)

// The chat layer is provider-neutral; its tests run it over the Claude
// Code adapter.

func claudeFold() agent.Fold { return claude.NewFold() }

// testShelves is a library over one projects folder of Claude Code
// transcripts.
func testShelves(projects string) []Shelf {
	return []Shelf{{Provider: claude.Name, History: claude.NewHistory(projects), NewFold: claudeFold}}
}

func claudeDriver(version string) agent.Driver { return claude.New().NewDriver(version) }
