package runs

import (
	"context"

	"lab/internal/claude"
)

// The CLI updates itself on operators' machines, so a run may use a
// version lab's tests never ran against. lab drives it all the same (the
// answer checkpoints read the screen, so a changed picker ends in a
// conflict, never in a wrong answer) but says so: a warning in the log
// once per binary and version, and CLIVerified on the run for the web app.

// cliVersion asks bin for its version and notes it.
func (s *Service) cliVersion(ctx context.Context, bin string) (string, error) {
	v, err := claude.CLIVersion(ctx, bin)
	if err != nil {
		return "", err
	}
	s.noteVersion(bin, v)
	return v, nil
}

// noteVersion logs the first time bin is seen at version v: a warning when
// v is unverified, else at info level. A binary upgraded in place to
// another version is noted again.
func (s *Service) noteVersion(bin, v string) {
	key := versionNote{bin, v}
	s.mu.Lock()
	seen := s.versions[key]
	s.versions[key] = true
	s.mu.Unlock()
	if seen {
		return
	}
	verified := claude.VersionVerified(v)
	if !verified {
		s.log.Warn("this Claude Code CLI version is not verified with lab: runs work, but a changed picker may refuse answers (409); see docs/cli-versions.md",
			"cli", v, "bin", bin, "verified", claude.VerifiedOldest+"–"+claude.VerifiedNewest)
		return
	}
	s.log.Info("Claude Code CLI", "cli", v, "bin", bin, "verified", true)
}

// versionNote is a binary at one version, noted once.
type versionNote struct{ bin, version string }

// CheckCLI finds the configured CLI and notes its version, so an
// unverified one is reported at start-up rather than at the first run.
// It returns the version, or an error when the CLI is missing or does not
// run (lab can still serve history then; starting a run will fail).
func (s *Service) CheckCLI(ctx context.Context) (string, error) {
	bin, err := claude.ResolveBin(s.cfg.ClaudeBin)
	if err != nil {
		return "", err
	}
	return s.cliVersion(ctx, bin)
}
