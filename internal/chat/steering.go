package chat

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"lab/internal/agent"
	"lab/internal/conv"
)

// The steering side of the Service: a run's slash commands, and switching
// its permission mode and model, each refused with a reason before any
// key when it cannot be done now; and the settings a live run shows.

// steered is what the pane confirmed of the last switches lab made. A
// field holds until the transcript records a change of that field after
// it (base is what the transcript said at the time), so the transcript
// wins as soon as it speaks.
type steered struct {
	set  conv.Settings
	base conv.Settings
}

// settingsLocked are the settings the chat header shows: the
// transcript's, with what lab saw the pane confirm since laid over them.
// nil when neither says anything. Called with l.mu held.
func (l *live) settingsLocked() *conv.Settings {
	var s conv.Settings
	if l.view != nil {
		s = l.view.Settings()
	}
	st := l.steered
	if st.set.Mode != "" && s.Mode == st.base.Mode {
		s.Mode = st.set.Mode
	}
	if st.set.Model != "" && s.Model == st.base.Model {
		s.Model = st.set.Model
	}
	if s == (conv.Settings{}) {
		return nil
	}
	return &s
}

// confirm records settings the pane confirmed (the empty fields of set
// change nothing).
func (l *live) confirm(set conv.Settings) {
	l.mu.Lock()
	var now conv.Settings
	if l.view != nil {
		now = l.view.Settings()
	}
	if set.Mode != "" {
		l.steered.set.Mode, l.steered.base.Mode = set.Mode, now.Mode
	}
	if set.Model != "" {
		l.steered.set.Model, l.steered.base.Model = set.Model, now.Model
	}
	// Reads serve the published frame: a switch that returned shows in
	// the next read, not only after the next refresh.
	l.publishFrame()
	l.mu.Unlock()
	l.tail.Kick()
}

// watchCommand has the live view watch the pane for the command lab just
// sent, so the chat shows the run working while the CLI runs it.
func (l *live) watchCommand(name string) {
	l.mu.Lock()
	l.look.watch = commandWatch{name: name, at: time.Now()}
	l.look.lastLook = time.Time{}
	l.mu.Unlock()
	l.tail.Kick()
}

// maxCommandArgs bounds the text after a command's name.
const maxCommandArgs = 4 << 10

// Commands lists the slash commands the run's CLI offers in its folder.
// ENotFound.
func (s *Service) Commands(ctx context.Context, id string) ([]conv.Command, error) {
	r, err := s.runs.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	p, ok := s.providers[r.Provider]
	if !ok {
		return nil, conv.Errorf(conv.EUnavailable, "run %s uses a CLI this lab does not run (%s)", id, r.Provider)
	}
	list := p.Commands(r.CLIVersion, s.home, r.Cwd)
	if list == nil {
		list = []conv.Command{}
	}
	return list, nil
}

// RunCommand runs one of the run's slash commands as typed at its prompt.
// Errors: EInvalid (an unknown command, text after one that takes none,
// none after one that needs it, a control character or a line break),
// EConflict (lab refuses the command, saying why; the run ended; a dialog
// waits; the CLI is busy or did not take it), ENotFound, EUnavailable.
// Nothing is typed unless the command is listed and sendable now.
func (s *Service) RunCommand(ctx context.Context, id string, req conv.CommandRequest) error {
	req.Name = strings.TrimPrefix(req.Name, "/")
	req.Args = strings.TrimSpace(req.Args)
	if err := checkCommand(req); err != nil {
		return err
	}
	list, err := s.Commands(ctx, id)
	if err != nil {
		return err
	}
	var cmd *conv.Command
	for i := range list {
		if list[i].Name == req.Name {
			cmd = &list[i]
		}
	}
	switch {
	case cmd == nil:
		return conv.Errorf(conv.EInvalid, "the run's CLI offers no command /%s", req.Name)
	case cmd.Refused != "":
		return conv.Errorf(conv.EConflict, "lab does not send /%s: %s", req.Name, cmd.Refused)
	case cmd.Args == conv.ArgsRequired && req.Args == "":
		return conv.Errorf(conv.EInvalid, "/%s needs text after it (%s); alone it opens a picker lab cannot drive", req.Name, orHint(cmd.ArgsHint))
	case cmd.Args == conv.ArgsNone && req.Args != "":
		return conv.Errorf(conv.EInvalid, "/%s takes no text after it", req.Name)
	}
	act, err := s.busy(ctx, id)
	if err != nil {
		return err
	}
	err = act.Command(ctx, req.Name, req.Line())
	if l := s.liveOf(id); l != nil && err == nil {
		l.watchCommand(req.Name)
	}
	s.kick(id)
	return err
}

func orHint(h string) string {
	if h == "" {
		return "an argument"
	}
	return h
}

// checkCommand refuses a name that is not one word and arguments that are
// not one line of printable text. EInvalid, ETooLarge.
func checkCommand(req conv.CommandRequest) error {
	if req.Name == "" {
		return conv.Errorf(conv.EInvalid, "name is required: the command without its slash")
	}
	if len(req.Args) > maxCommandArgs {
		return conv.Errorf(conv.ETooLarge, "the command's text is %d bytes; at most %d", len(req.Args), maxCommandArgs)
	}
	for _, part := range []string{req.Name, req.Args} {
		if !utf8.ValidString(part) {
			return conv.Errorf(conv.EInvalid, "the command is not valid UTF-8")
		}
		for _, r := range part {
			if unicode.IsControl(r) {
				return conv.Errorf(conv.EInvalid, "the command contains the control character %U; it must be one line", r)
			}
		}
	}
	if strings.ContainsFunc(req.Name, unicode.IsSpace) {
		return conv.Errorf(conv.EInvalid, "the command name %q has a space; put what follows it in args", req.Name)
	}
	return nil
}

// SetMode switches a live run's permission mode with its CLI's own keys
// or command, confirmed on the pane. EInvalid for a mode the run cannot
// switch to, EConflict as for a command (or when the pane did not
// confirm), ENotFound, EUnavailable.
func (s *Service) SetMode(ctx context.Context, id, mode string) error {
	if strings.TrimSpace(mode) == "" {
		return conv.Errorf(conv.EInvalid, "mode is required")
	}
	return s.steer(ctx, id, "mode "+mode, func(d agent.Driver) func(string) ([]agent.Move, error) {
		return func(c string) ([]agent.Move, error) { return d.SwitchMode(mode, c) }
	}, func(d agent.Driver, capture string) conv.Settings {
		return conv.Settings{Mode: d.Settings(capture).Mode}
	})
}

// SetModel switches a live run's model with its CLI's model command,
// confirmed on the pane. Errors as SetMode.
func (s *Service) SetModel(ctx context.Context, id, model string) error {
	if strings.TrimSpace(model) == "" {
		return conv.Errorf(conv.EInvalid, "model is required")
	}
	return s.steer(ctx, id, "model "+model, func(d agent.Driver) func(string) ([]agent.Move, error) {
		return func(c string) ([]agent.Move, error) { return d.SwitchModel(model, c) }
	}, func(d agent.Driver, capture string) conv.Settings {
		return conv.Settings{Model: model}
	})
}

// busy returns the run's Actions unless its transcript says the agent
// works (the actor checks the pane besides), giving a turn that is ending
// idleGrace to end: its last words show a moment before its end is
// recorded. EConflict.
func (s *Service) busy(ctx context.Context, id string) (Actions, error) {
	act, err := s.actionsOf(ctx, id)
	if err != nil {
		return nil, err
	}
	l := s.liveOf(id)
	deadline := time.Now().Add(idleGrace)
	for l != nil {
		if _, st := l.current(); st != conv.StateWorking {
			break
		}
		if time.Now().After(deadline) {
			return nil, conv.Errorf(conv.EConflict, "the agent is working; wait for it to finish or interrupt it first")
		}
		if err := pause(ctx, 50*time.Millisecond); err != nil {
			return nil, conv.Wrap(conv.EUnavailable, err, "cancelled")
		}
	}
	return act, nil
}

// steer plays a switch and records what the pane confirmed.
func (s *Service) steer(ctx context.Context, id, what string, plan func(agent.Driver) func(string) ([]agent.Move, error), confirmed func(agent.Driver, string) conv.Settings) error {
	act, err := s.busy(ctx, id)
	if err != nil {
		return err
	}
	s.mu.Lock()
	drv := s.drivers[id]
	s.mu.Unlock()
	if drv == nil {
		return conv.Errorf(conv.EConflict, "run %s has ended", id)
	}
	err = act.Switch(ctx, what, plan(drv))
	if l := s.liveOf(id); l != nil && err == nil {
		capture, cerr := s.runs.Pane(id).Capture(ctx)
		if cerr == nil {
			l.confirm(confirmed(drv, capture))
		}
	}
	s.kick(id)
	return err
}
