package runs

import (
	"context"

	"lab/internal/agent"
	"lab/internal/conv"
)

// checkResume refuses to resume a session something already runs: a live
// run following it (open that run instead), or a CLI process lab did not
// start (attach to it instead). Two processes writing one transcript
// would interleave it.
func (s *Service) checkResume(ctx context.Context, info conv.ProviderInfo, session string) error {
	if !info.Resume {
		return conv.Errorf(conv.EInvalid, "lab cannot resume %s sessions", info.Label)
	}
	live, err := s.db.ListRuns(ctx, true)
	if err != nil {
		return err
	}
	for _, r := range live {
		if r.SessionID == session {
			return conv.Errorf(conv.EConflict, "run %s already follows session %s: open it instead", r.ID, session)
		}
	}
	ext, err := s.External(ctx)
	if err != nil {
		return err
	}
	for _, e := range ext {
		if e.SessionID == session {
			return conv.Errorf(conv.EConflict, "session %s is running in process %d, started outside lab: attach to it instead", session, e.PID)
		}
	}
	return nil
}

// resumedTranscript is the transcript a resumed session goes on writing,
// from the CLI's history; "" when the history does not have it. The run
// records it as it starts, so its chat shows the earlier conversation at
// once, before the CLI's hooks name the transcript (a resumed Codex
// session fires SessionStart only with its first turn).
func (s *Service) resumedTranscript(p agent.Provider, session string) string {
	path, err := p.NewHistory(s.cfg.cliHome()).Path(session)
	if err != nil {
		s.log.Info("resumed session not in the CLI's history; its chat waits for the CLI to name its transcript", "session", session, "err", err)
		return ""
	}
	return path
}
