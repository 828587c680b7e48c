package claude

import "lab/internal/clikit"

// The CLI updates itself on operators' machines, so lab meets versions it
// was never pinned to. Versions are sorted into three kinds here:
//
//   - PinnedVersion: what lab's tests, CI and `lab demo` install (the
//     Makefile, scripts/install-claude.sh and the README name it too;
//     TestPinAgreesEverywhere keeps them in step).
//   - The verified range, VerifiedOldest to VerifiedNewest: every release
//     in it had lab's real-CLI test packages pass against it (`make drift
//     V=x`, see docs/cli-versions.md). CI runs the real-CLI packages against
//     the pinned, the oldest and the newest verified version.
//   - Anything else is unverified: lab still drives it (the answer
//     checkpoints read the screen, so a changed picker ends in a conflict,
//     not a wrong answer), but it logs a warning once per binary and the web
//     app flags the run.
const (
	PinnedVersion  = "2.1.332"
	VerifiedOldest = "2.1.328"
	VerifiedNewest = "2.1.332"
)

// VersionVerified reports whether v ("2.1.330" or "2.1.330 (Claude Code)")
// lies in the verified range. An unparsable version is not verified.
func VersionVerified(v string) bool {
	lo, _ := CompareVersions(v, VerifiedOldest)
	hi, ok := CompareVersions(v, VerifiedNewest)
	return ok && lo >= 0 && hi <= 0
}

// CompareVersions compares two CLI versions numerically (see
// clikit.CompareVersions); "2.1.328 (Claude Code)" reads as 2.1.328.
func CompareVersions(a, b string) (cmp int, ok bool) { return clikit.CompareVersions(a, b) }
