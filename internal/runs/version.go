package runs

import (
	"context"
	"errors"
	"fmt"

	"lab/internal/agent"
)

// An agent CLI updates itself on operators' machines, so a run may use a
// version lab's tests never ran against. lab drives it all the same (the
// answer checkpoints read the screen, so a changed picker ends in a
// conflict, never in a wrong answer) but says so: a warning in the log
// once per binary and version, and CLIVerified on the run for the web app.

// versionNote is a binary at one version, noted once.
type versionNote struct{ bin, version string }

// noteVersion logs the first time bin is seen at version v: a warning when
// p was not verified with v, else at info level. A binary upgraded in place
// to another version is noted again.
func (s *Service) noteVersion(p agent.Provider, bin, v string) {
	key := versionNote{bin, v}
	s.mu.Lock()
	seen := s.versions[key]
	s.versions[key] = true
	s.mu.Unlock()
	if seen {
		return
	}
	info := p.Info()
	if !p.VersionVerified(v) {
		s.log.Warn("this "+info.Label+" CLI version is not verified with lab: runs work, but a changed picker may refuse answers (409); see docs/cli-versions.md",
			"provider", info.Name, "cli", v, "bin", bin)
		return
	}
	s.log.Info(info.Label+" CLI", "provider", info.Name, "cli", v, "bin", bin, "verified", true)
}

// verified reports whether the provider named provider was verified with
// version; false for a provider this lab does not run.
func (s *Service) verified(provider, version string) bool {
	ag, err := s.cfg.agentFor(provider)
	return err == nil && version != "" && ag.Provider.VersionVerified(version)
}

// CheckCLI finds every configured CLI and notes its version, so an
// unverified one is reported at start-up rather than at the first run. It
// returns an error naming each CLI that is missing or does not run (lab
// can still serve history then; starting a run with it will fail).
func (s *Service) CheckCLI(ctx context.Context) error {
	var errs []error
	for _, ag := range s.cfg.Agents {
		label := ag.Provider.Info().Label
		bin, err := ag.Provider.ResolveBin(ag.Bin)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", label, err))
			continue
		}
		v, err := ag.Provider.Version(ctx, bin)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", label, err))
			continue
		}
		s.noteVersion(ag.Provider, bin, v)
	}
	return errors.Join(errs...)
}
