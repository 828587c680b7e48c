// Package tmux drives a tmux server on lab's private socket: it creates
// sessions for runs, sends validated named keys and bracketed pastes, and
// reads panes. It never talks to the operator's own tmux server.
package tmux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Server is a tmux server reached through one socket file.
type Server struct {
	socket string
	bin    string
}

// New returns a Server for the socket at socketPath. The server itself is
// started by the first NewSession.
func New(socketPath string) *Server {
	return &Server{socket: socketPath, bin: "tmux"}
}

// Socket returns the socket path.
func (s *Server) Socket() string { return s.socket }

// SessionOptions describe a new detached session running one command.
type SessionOptions struct {
	Name   string
	Dir    string
	Width  int
	Height int
	Env    map[string]string
	Argv   []string
}

// ErrNoServer is returned by queries when no tmux server runs on the socket.
var ErrNoServer = errors.New("tmux: no server on socket")

var sessionName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// NewSession starts a detached session. The command runs directly (no shell
// between), with Env added to tmux's environment for it.
func (s *Server) NewSession(ctx context.Context, o SessionOptions) error {
	if !sessionName.MatchString(o.Name) {
		return fmt.Errorf("tmux: invalid session name %q", o.Name)
	}
	if len(o.Argv) == 0 {
		return errors.New("tmux: no command")
	}
	w, h := o.Width, o.Height
	if w <= 0 {
		w = 120
	}
	if h <= 0 {
		h = 45
	}
	args := []string{"new-session", "-d", "-s", o.Name, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h)}
	if o.Dir != "" {
		args = append(args, "-c", o.Dir)
	}
	keys := make([]string, 0, len(o.Env))
	for k := range o.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		args = append(args, "-e", k+"="+o.Env[k])
	}
	args = append(args, "--")
	args = append(args, o.Argv...)
	if _, err := s.cmd(ctx, nil, args...); err != nil {
		return err
	}
	// Keep the pane readable after the command exits only long enough for
	// lab to notice; the default (destroy) is what marks a run ended.
	return nil
}

// HasSession reports whether a session named name exists.
func (s *Server) HasSession(ctx context.Context, name string) (bool, error) {
	names, err := s.ListSessions(ctx)
	if err != nil {
		if errors.Is(err, ErrNoServer) {
			return false, nil
		}
		return false, err
	}
	for _, n := range names {
		if n == name {
			return true, nil
		}
	}
	return false, nil
}

// ListSessions returns the names of the sessions on the socket; none (and
// no error) when no server runs.
func (s *Server) ListSessions(ctx context.Context) ([]string, error) {
	out, err := s.cmd(ctx, nil, "list-sessions", "-F", "#{session_name}")
	if err != nil {
		if errors.Is(err, ErrNoServer) {
			return nil, nil
		}
		return nil, err
	}
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l != "" {
			names = append(names, l)
		}
	}
	return names, nil
}

// KillSession ends a session and the processes in it. A missing session is
// not an error.
func (s *Server) KillSession(ctx context.Context, name string) error {
	ok, err := s.HasSession(ctx, name)
	if err != nil || !ok {
		return err
	}
	_, err = s.cmd(ctx, nil, "kill-session", "-t", exact(name))
	return err
}

// KillServer stops the tmux server on the socket, if any.
func (s *Server) KillServer(ctx context.Context) error {
	_, err := s.cmd(ctx, nil, "kill-server")
	if errors.Is(err, ErrNoServer) {
		return nil
	}
	return err
}

// keyNames are the named keys lab may send. Anything else is refused, so no
// caller can smuggle text or tmux syntax through SendKey.
var keyNames = map[string]bool{
	"Enter": true, "Escape": true, "Up": true, "Down": true, "Left": true,
	"Right": true, "Space": true, "Tab": true, "BTab": true, "BSpace": true,
	"Home": true, "End": true, "C-c": true, "C-u": true,
	// A picker's letter shortcut: Claude Code's model picker takes s for
	// "this session only".
	"s": true,
}

// ValidKey reports whether key is one SendKey accepts.
func ValidKey(key string) bool { return keyNames[key] }

// SendKey sends exactly one named key to target (a session name or pane id).
func (s *Server) SendKey(ctx context.Context, target, key string) error {
	return s.SendKeys(ctx, target, key)
}

// SendKeys sends named keys to target in one tmux call, in order: the
// application reads them as one burst. Every key is checked first; one
// that is not allowed refuses them all, and nothing is sent.
func (s *Server) SendKeys(ctx context.Context, target string, keys ...string) error {
	if len(keys) == 0 {
		return errors.New("tmux: no keys to send")
	}
	for _, k := range keys {
		if !keyNames[k] {
			return fmt.Errorf("tmux: key %q is not allowed", k)
		}
	}
	args := append([]string{"send-keys", "-t", target}, keys...)
	_, err := s.cmd(ctx, nil, args...)
	return err
}

// Paste types text into target as one bracketed paste, so the application
// sees it as pasted text (newlines do not submit). The buffer is loaded
// from stdin, never from the command line, and deleted after pasting.
func (s *Server) Paste(ctx context.Context, target, text string) error {
	return s.paste(ctx, target, text, true)
}

// Type types text into target as plain keystrokes (no paste brackets),
// as a person typing it would. Text with a control character is refused:
// keys that act go through SendKey, one named key at a time. Like Paste
// it goes through a buffer, as tmux would read a trailing ";" of a
// send-keys argument as a command separator.
func (s *Server) Type(ctx context.Context, target, text string) error {
	if err := CheckText(text); err != nil {
		return err
	}
	return s.paste(ctx, target, text, false)
}

// CheckText refuses text Type would not type: empty, not UTF-8, or with a
// control character (C0, DEL, C1), each of which a terminal takes as a
// key that acts rather than text.
func CheckText(text string) error {
	if text == "" {
		return errors.New("tmux: no text to type")
	}
	if !utf8.ValidString(text) {
		return errors.New("tmux: text is not valid UTF-8")
	}
	for _, r := range text {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return fmt.Errorf("tmux: text holds the control character U+%04X; send keys by name", r)
		}
	}
	return nil
}

func (s *Server) paste(ctx context.Context, target, text string, bracketed bool) error {
	buf := fmt.Sprintf("lab-%d", bufferSeq.Add(1))
	if _, err := s.cmd(ctx, strings.NewReader(text), "load-buffer", "-b", buf, "-"); err != nil {
		return err
	}
	args := []string{"paste-buffer", "-d", "-b", buf, "-t", target}
	if bracketed {
		args = append(args, "-p")
	}
	_, err := s.cmd(ctx, nil, args...)
	return err
}

// Capture returns the visible text of target's pane, one line per row,
// without trailing blanks.
func (s *Server) Capture(ctx context.Context, target string) (string, error) {
	return s.cmd(ctx, nil, "capture-pane", "-p", "-t", target)
}

// PanePID returns the pid of the process running in target's pane.
func (s *Server) PanePID(ctx context.Context, target string) (int, error) {
	out, err := s.cmd(ctx, nil, "display-message", "-p", "-t", target, "#{pane_pid}")
	if err != nil {
		return 0, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		return 0, fmt.Errorf("tmux: pane pid %q: %w", out, err)
	}
	return pid, nil
}

// PaneID returns the pane id (e.g. %3) of a session's active pane.
func (s *Server) PaneID(ctx context.Context, session string) (string, error) {
	// "=name" alone names a session; a pane target needs the trailing
	// colon, or tmux 3.3a prints nothing and exits 0.
	out, err := s.cmd(ctx, nil, "display-message", "-p", "-t", exact(session)+":", "#{pane_id}")
	if err != nil {
		return "", err
	}
	id := strings.TrimSpace(out)
	if id == "" {
		return "", fmt.Errorf("tmux: no pane for session %q", session)
	}
	return id, nil
}

// exact makes a target match a session name exactly, not by prefix.
func exact(name string) string { return "=" + name }

func (s *Server) cmd(ctx context.Context, stdin *strings.Reader, args ...string) (string, error) {
	full := append([]string{"-S", s.socket}, args...)
	c := exec.CommandContext(ctx, s.bin, full...)
	if stdin != nil {
		c.Stdin = stdin
	}
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		// "server exited unexpectedly": the server quit as its last
		// session ended, in the instant this command reached it.
		if strings.Contains(msg, "no server running") || strings.Contains(msg, "error connecting to") || strings.Contains(msg, "server exited unexpectedly") {
			return "", fmt.Errorf("%w: %s", ErrNoServer, msg)
		}
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("tmux %s: %s", args[0], msg)
	}
	return out.String(), nil
}
