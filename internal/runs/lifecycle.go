package runs

import (
	"context"
	"strings"
	"time"
)

// Sweep marks ended every live run whose tmux session is gone (the CLI
// exited, or the tmux server died with the machine), and every attached
// run whose process is gone, and returns their ids.
// When tmux cannot be asked it ends nothing: a run is never written off
// on uncertainty.
func (s *Service) Sweep(ctx context.Context) ([]string, error) {
	live, err := s.db.ListRuns(ctx, true)
	if err != nil || len(live) == 0 {
		return nil, err
	}
	// Taken after the runs were read and before the sessions are: a run
	// recorded by then is either still starting (in the set) or has its
	// session already, so it shows in the list read next.
	starting := s.startingNow()
	names, err := s.listSessions(ctx)
	if err != nil {
		return nil, err
	}
	alive := make(map[string]bool, len(names))
	for _, n := range names {
		alive[n] = true
	}
	var ended []string
	for _, rec := range live {
		if rec.Attached() && attachedAlive(rec.Attach) || !rec.Attached() && alive[rec.TmuxSession] {
			continue
		}
		// Recorded a moment before its session was created: the session
		// list read above may predate it.
		if starting[rec.ID] {
			continue
		}
		was, err := s.db.EndRun(ctx, rec.ID, s.cfg.Now(), "exited")
		if err != nil {
			return ended, err
		}
		if was {
			s.forget(rec.ID)
			s.log.Info("run ended", "run", rec.ID, "reason", "its tmux session is gone")
			ended = append(ended, rec.ID)
			s.changed(rec.ID)
		}
	}
	return ended, nil
}

// AdoptReport says what Adopt found.
type AdoptReport struct {
	Adopted []string // live runs still running, now served again
	Ended   []string // runs whose session died while lab was away
	Foreign []string // lab-looking tmux sessions with no run, left alone
}

// Adopt reconciles the runs table with the tmux sessions on lab's socket
// at start-up: runs whose session survived are adopted with their spools
// (a pending dialog included) and their session info refreshed, runs
// whose session is gone are marked ended, and sessions nobody recorded are
// reported, never killed.
func (s *Service) Adopt(ctx context.Context) (AdoptReport, error) {
	var rep AdoptReport
	ended, err := s.Sweep(ctx)
	rep.Ended = ended
	if err != nil {
		return rep, err
	}
	live, err := s.db.ListRuns(ctx, true)
	if err != nil {
		return rep, err
	}
	known := map[string]bool{}
	for _, rec := range live {
		known[rec.TmuxSession] = true
		if sd, err := s.side(rec); err != nil {
			s.log.Warn("adopt run", "run", rec.ID, "err", err)
		} else if err := sd.Compact(); err != nil {
			s.log.Warn("compact run spool", "run", rec.ID, "err", err)
		}
		s.view(ctx, rec) // store any session change that happened while away
		if ag, err := s.cfg.agentFor(rec.Provider); err == nil && rec.CLIVersion != "" {
			s.noteVersion(ag.Provider, rec.Bin, rec.CLIVersion)
		}
		rep.Adopted = append(rep.Adopted, rec.ID)
	}
	names, err := s.listSessions(ctx)
	if err != nil {
		return rep, err
	}
	for _, n := range names {
		if strings.HasPrefix(n, "lab-") && !known[n] {
			rep.Foreign = append(rep.Foreign, n)
		}
	}
	s.log.Info("runs adopted", "adopted", len(rep.Adopted), "ended", len(rep.Ended), "foreign", len(rep.Foreign))
	return rep, nil
}

// SweepEvery runs Sweep every interval until ctx ends.
func (s *Service) SweepEvery(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("run sweep", "err", err)
			}
		}
	}
}
