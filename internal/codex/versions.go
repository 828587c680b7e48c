package codex

import "slices"

// Which Codex CLI versions lab knows, as internal/claude's versions.go says
// for Claude Code:
//
//   - PinnedVersion: what lab's tests, CI and `lab demo` install
//     (scripts/install-codex.sh and the Makefile's CODEX_PINNED name it
//     too).
//   - verifiedVersions: the versions lab's real-CLI tests (the codextest
//     matrix, cmd/lab's Codex runs through the API) passed against; only
//     the pin so far.
//   - Anything else is unverified: lab still drives it (recipes find rows
//     by their labels on the pane, so a changed picker ends in a conflict,
//     not a wrong answer), and the web app flags the run.
const PinnedVersion = "0.171.0"

var verifiedVersions = []string{PinnedVersion}

// VersionVerified reports whether lab was verified against version.
func VersionVerified(version string) bool { return slices.Contains(verifiedVersions, version) }
