package tmux

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A pane is watched through tmux control mode: a client attached with
// `tmux -C attach -f read-only,ignore-size` that tmux tells of every byte
// a pane's program writes (%output notifications), in order with the
// replies to the commands the client sends. It was chosen over the
// alternatives because it costs nothing while nobody watches (the client
// exists only while a watcher does, and tmux pushes; nothing polls), it
// changes nothing for anyone else (pipe-pane would take the pane's one
// pipe, which the operator may use for logging; read-only keeps keys out,
// ignore-size keeps the window the size the CLI has), and its ordering
// gives an exact start: a capture of the screen asked for on the same
// connection is answered between the output bytes it already contains and
// those it does not (tmux queues a pane's output for control clients
// before it parses it into the screen, in one callback).
//
// The client never sends refresh-client: on a read-only, ignore-size
// client `refresh-client -C WxH` still resizes the window (seen on 3.3a).

// Screen is a pane's visible screen as bytes that redraw it on a fresh
// terminal of Cols x Rows: its lines with their colours and attributes,
// then the cursor's position and visibility.
type Screen struct {
	Cols, Rows int
	Data       []byte
}

// Frame is what a watched pane drew since the last frame: a new screen to
// start from when Screen is set (the first frame, after a resize, after
// the reader fell behind), then Output, the bytes the pane's program
// wrote after it.
type Frame struct {
	Screen *Screen
	Output []byte
}

// maxBacklog bounds the output a watcher holds for a reader that does not
// keep up; past it the output is dropped and the reader gets a new screen.
const maxBacklog = 1 << 20

// ErrPaneGone says the watched pane closed (its program exited, or its
// session ended).
var ErrPaneGone = errors.New("tmux: the pane is gone")

// Watcher follows one pane through a control-mode client. Next returns
// its frames; Close detaches the client.
type Watcher struct {
	pane  string
	cmd   *exec.Cmd
	stdin io.WriteCloser

	mu      sync.Mutex
	screen  *Screen
	out     []byte
	err     error         // set once: the watch ended
	wake    chan struct{} // cap 1: something to take
	pending int           // snapshot requests sent and not yet answered

	closing sync.Once

	done chan struct{} // the reader goroutine returned
}

// Watch starts following pane (an id such as "%3"): the first frame is
// its screen now. The client attaches to a session that holds the pane
// (not to the pane itself, which would make it the session's current
// pane for everyone). Close it when done; ctx ending closes it too.
func (s *Server) Watch(ctx context.Context, pane string) (*Watcher, error) {
	if !ValidPaneID(pane) {
		return nil, fmt.Errorf("tmux: %q is not a pane id", pane)
	}
	out, err := s.cmd(ctx, nil, "display-message", "-p", "-t", pane, "#{session_id}")
	if err != nil {
		return nil, err
	}
	sess := strings.TrimSpace(out)
	if !strings.HasPrefix(sess, "$") {
		return nil, fmt.Errorf("tmux: no session holds pane %s", pane)
	}
	c := exec.Command(s.bin, "-S", s.socket, "-C", "attach-session", "-t", sess, "-f", "read-only,ignore-size")
	// A lab that runs inside tmux itself must not look like a nested
	// client to the server it attaches to.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
			c.Env = append(c.Env, kv)
		}
	}
	stdin, err := c.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("tmux: control client: %w", err)
	}
	w := &Watcher{pane: pane, cmd: c, stdin: stdin, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		err := w.read(stdout)
		if !errors.Is(err, io.EOF) {
			c.Process.Kill() // it may still be writing to a pipe nobody reads
		}
		werr := c.Wait()
		if err == nil || errors.Is(err, io.EOF) {
			if msg := strings.TrimSpace(stderr.String()); msg != "" {
				err = fmt.Errorf("tmux: control client: %s", msg)
			} else if werr != nil {
				err = fmt.Errorf("tmux: control client: %w", werr)
			} else {
				err = ErrPaneGone
			}
		}
		w.finish(err)
	}()
	go func() {
		select {
		case <-ctx.Done():
			w.Close()
		case <-w.done:
		}
	}()
	if err := w.snapshot(); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

// screenFormat is what the snapshot asks of the pane beside its capture.
const screenFormat = "#{pane_width} #{pane_height} #{cursor_x} #{cursor_y} #{cursor_flag} #{alternate_on}"

// snapshot asks for the pane's screen: its size and cursor, then its
// capture with escapes, in one command line so no output falls between.
func (w *Watcher) snapshot() error {
	w.mu.Lock()
	w.pending++
	w.mu.Unlock()
	line := fmt.Sprintf("display-message -p -t %s '%s' ; capture-pane -p -e -t %s\n", w.pane, screenFormat, w.pane)
	_, err := io.WriteString(w.stdin, line)
	return err
}

// Next waits for what the pane drew since the last call. It returns the
// watch's end (ErrPaneGone, ctx's error, a client failure) once nothing
// is left to take.
func (w *Watcher) Next(ctx context.Context) (Frame, error) {
	for {
		w.mu.Lock()
		f := Frame{Screen: w.screen, Output: w.out}
		w.screen, w.out = nil, nil
		err := w.err
		w.mu.Unlock()
		if f.Screen != nil || len(f.Output) > 0 {
			return f, nil
		}
		if err != nil {
			return Frame{}, err
		}
		select {
		case <-ctx.Done():
			return Frame{}, ctx.Err()
		case <-w.wake:
		}
	}
}

// Close detaches the control client (closing its input ends it) and
// waits for it to exit.
func (w *Watcher) Close() {
	w.closing.Do(func() {
		w.stdin.Close()
		// A client stuck writing to a full pipe would never read its
		// input's end.
		t := time.AfterFunc(2*time.Second, func() { w.cmd.Process.Kill() })
		<-w.done
		t.Stop()
	})
	<-w.done
}

func (w *Watcher) finish(err error) {
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.mu.Unlock()
	w.poke()
}

func (w *Watcher) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// read parses the control client's output until it ends.
func (w *Watcher) read(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var block [][]byte // lines of the command reply being read
	inBlock, ours := false, false
	var replies [][][]byte // our replies, in order, until a snapshot is whole
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return err
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		if inBlock {
			if isGuard(line, "%end") || isGuard(line, "%error") {
				inBlock = false
				if !ours {
					continue
				}
				if isGuard(line, "%error") {
					return fmt.Errorf("%w: %s", ErrPaneGone, bytes.Join(block, []byte(" ")))
				}
				replies = append(replies, block)
				if len(replies) == 2 {
					if err := w.takeScreen(replies[0], replies[1]); err != nil {
						return err
					}
					replies = nil
				}
				continue
			}
			block = append(block, bytes.Clone(line))
			continue
		}
		switch {
		case isGuard(line, "%begin"):
			// "%begin time number flags": flags 1 marks a reply to a
			// command this client sent (the attach itself has 0).
			f := bytes.Fields(line)
			inBlock, ours, block = true, len(f) >= 4 && string(f[3]) == "1", nil
		case bytes.HasPrefix(line, []byte("%output ")):
			rest := line[len("%output "):]
			id, data, ok := bytes.Cut(rest, []byte(" "))
			if ok && string(id) == w.pane && w.output(unescapeOutput(data)) {
				if err := w.snapshot(); err != nil {
					return err
				}
			}
		case bytes.HasPrefix(line, []byte("%extended-output ")):
			// Only sent to clients that asked for pause-after; not us.
		case isGuard(line, "%layout-change") || isGuard(line, "%window-close") || isGuard(line, "%unlinked-window-close"):
			// The pane may have a new size (or be gone): start again
			// from a fresh screen; a gone pane answers with %error.
			if err := w.snapshot(); err != nil {
				return err
			}
		case isGuard(line, "%exit"):
			return ErrPaneGone
		}
	}
}

// isGuard reports whether line is the notification name (alone or with
// arguments).
func isGuard(line []byte, name string) bool {
	return bytes.HasPrefix(line, []byte(name)) && (len(line) == len(name) || line[len(name)] == ' ')
}

// output adds bytes the pane wrote, reporting whether the reader fell
// so far behind that it needs a new screen. Bytes that precede an
// asked-for screen are in it already: they are dropped until it arrives.
func (w *Watcher) output(p []byte) (resync bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pending > 0 || len(p) == 0 {
		return false
	}
	if len(w.out)+len(p) > maxBacklog {
		w.out = nil
		return true
	}
	w.out = append(w.out, p...)
	w.poke()
	return false
}

// takeScreen builds the Screen from the replies to a snapshot: the
// format line and the capture.
func (w *Watcher) takeScreen(info, capture [][]byte) error {
	if len(info) != 1 {
		return fmt.Errorf("tmux: unexpected pane info %q", bytes.Join(info, []byte("\n")))
	}
	f := strings.Fields(string(info[0]))
	if len(f) != 6 {
		return fmt.Errorf("tmux: unexpected pane info %q", info[0])
	}
	n := make([]int, len(f))
	for i, s := range f {
		v, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("tmux: unexpected pane info %q", info[0])
		}
		n[i] = v
	}
	sc := &Screen{Cols: n[0], Rows: n[1], Data: screenBytes(capture, n[2], n[3], n[4] == 1, n[5] == 1)}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pending--
	if w.pending > 0 {
		return nil // a newer screen is on its way
	}
	w.screen, w.out = sc, nil
	w.poke()
	return nil
}

// screenBytes redraws a captured screen: the alternate screen entered if
// the program is on it (so its leaving it later works), each line from
// the left margin with the attributes the capture carries over from the
// line before, no newline after the last (which would scroll), then the
// cursor.
func screenBytes(lines [][]byte, cx, cy int, visible, alternate bool) []byte {
	var b bytes.Buffer
	if alternate {
		b.WriteString("\x1b[?1049h")
	}
	b.WriteString("\x1b[H\x1b[2J")
	for i, l := range lines {
		if i > 0 {
			b.WriteString("\r\n")
		}
		b.Write(l)
	}
	fmt.Fprintf(&b, "\x1b[0m\x1b[%d;%dH", cy+1, cx+1)
	if visible {
		b.WriteString("\x1b[?25h")
	} else {
		b.WriteString("\x1b[?25l")
	}
	return b.Bytes()
}

// unescapeOutput decodes a %output payload: tmux writes bytes below a
// space and the backslash as a backslash and three octal digits, and
// everything else as it is.
func unescapeOutput(p []byte) []byte {
	if bytes.IndexByte(p, '\\') < 0 {
		return bytes.Clone(p)
	}
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+3 < len(p) && isOctal(p[i+1]) && isOctal(p[i+2]) && isOctal(p[i+3]) {
			out = append(out, (p[i+1]-'0')<<6|(p[i+2]-'0')<<3|(p[i+3]-'0'))
			i += 3
			continue
		}
		out = append(out, c)
	}
	return out
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }
