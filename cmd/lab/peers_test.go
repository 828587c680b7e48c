package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"lab/internal/claudetest"
	"lab/internal/conv"
	"lab/internal/httpapi"
	"lab/internal/push"
	"lab/internal/push/pushtest"
	"lab/internal/tmux"
)

// childLab is `lab demo` running as its own process (this test binary
// acting as lab), so a test can kill it as a machine's lab would be
// killed, and start it again on the same address and state.
type childLab struct {
	t           testing.TB
	state, home string
	addr        string
	cmd         *exec.Cmd
	log         *syncBuf
}

func startChildLab(t testing.TB) *childLab {
	t.Helper()
	state := claudetest.ShortTempDir(t, "labpeer")
	t.Cleanup(func() { tmux.New(filepath.Join(state, "tmux.sock")).KillServer(context.Background()) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &childLab{t: t, state: state, home: t.TempDir(), addr: ln.Addr().String()}
	ln.Close()
	c.start()
	t.Cleanup(c.kill)
	return c
}

func (c *childLab) url() string { return "http://" + c.addr }

// start runs it and waits for /healthz.
func (c *childLab) start() {
	c.t.Helper()
	argv := append(selfArgv(c.t), "demo", "--addr", c.addr, "--state-dir", c.state, "--machine", "peer-host",
		"--claude-bin", claudetest.CLI(c.t), "--codex-bin", "/nonexistent/codex")
	c.cmd = exec.Command(argv[0], argv[1:]...)
	c.cmd.Env = append(os.Environ(), "HOME="+c.home)
	c.log = &syncBuf{}
	c.cmd.Stdout, c.cmd.Stderr = c.log, c.log
	if err := c.cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	claudetest.Poll(c.t, 60*time.Second, "the peer lab to listen", func() bool {
		res, err := http.Get(c.url() + "/healthz")
		if err == nil {
			res.Body.Close()
		}
		return err == nil && res.StatusCode == 200
	})
}

// kill ends it at once, as SIGKILL does: no draining, no goodbye.
func (c *childLab) kill() {
	if c.cmd != nil && c.cmd.ProcessState == nil {
		c.cmd.Process.Signal(syscall.SIGKILL)
		c.cmd.Wait()
	}
}

// cli runs a lab subcommand with stdin, as the operator would.
func cli(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	if err := run(context.Background(), args, env); err != nil {
		t.Fatalf("lab %q: %v\n%s", args, err, errb.String())
	}
	return out.String()
}

// events reads a lab's event stream with a bearer token.
func (l *labServer) events(ctx context.Context) <-chan conv.Event {
	l.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", l.base+"/api/v1/events", nil)
	req.Header.Set("Authorization", "Bearer "+l.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		l.t.Fatalf("events: %v", err)
	}
	ch := make(chan conv.Event, 256)
	go func() {
		defer close(ch)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var e conv.Event
				if json.Unmarshal([]byte(data), &e) == nil {
					ch <- e
				}
			}
		}
	}()
	return ch
}

func peerStatus(l *labServer, name string) conv.Machine {
	var list httpapi.PeerList
	l.call("GET", "/api/v1/peers", nil, &list)
	for _, m := range list.Peers {
		if m.Name == name {
			return m
		}
	}
	return conv.Machine{}
}

// TestThreeLabsOneHub is the acceptance on one machine: three real
// labs (each its own state and tmux socket, the real CLI against the
// scripted model), one the hub. The hub lists all three's runs; a question
// on a peer is answered through it and pushed once to the hub's device,
// naming the machine; reply, interrupt, stop and resume go through it;
// its history search finds a peer's session. Then faults: a peer killed
// while the hub's client watches is shown unreachable and nothing else
// suffers; restarted, its runs are live again without touching the hub;
// its token revoked, the hub's row says so.
func TestThreeLabsOneHub(t *testing.T) {
	hub := startLab(t)
	c := startLab(t)
	b := startChildLab(t)

	// Link b as an operator would: a relay token made on b, given to the
	// hub's CLI on stdin. c through the hub's API, as its settings screen.
	bTok := strings.TrimSpace(cli(t, "", "token", "create", "--relay", "hub", "--state-dir", b.state))
	cli(t, bTok+"\n", "peer", "add", "b", b.url(), "--state-dir", hub.state)
	cTok := strings.TrimSpace(cli(t, "", "token", "create", "--relay", "hub", "--state-dir", c.state))
	var added conv.Machine
	if code := hub.call("POST", "/api/v1/peers", httpapi.PeerRequest{Name: "c", URL: c.base, Token: cTok}, &added); code != 201 || added.Status != conv.MachineOK {
		t.Fatalf("add c: %d %+v", code, added)
	}
	claudetest.Poll(t, 30*time.Second, "the hub to pick up b from its database", func() bool {
		return peerStatus(hub, "b").Status == conv.MachineOK
	})

	// The phone subscribes at the hub only.
	svc := pushtest.New(t)
	sub := svc.Subscribe(t)
	var dev push.Device
	var sreq push.SubscribeRequest
	sreq.Name = "phone"
	sreq.Subscription.Endpoint, sreq.Subscription.Keys.P256dh, sreq.Subscription.Keys.Auth = sub.Endpoint, sub.P256dh, sub.Auth
	if code := hub.call("POST", "/api/v1/push/devices", sreq, &dev); code != 201 {
		t.Fatalf("subscribe: %d", code)
	}

	start := func(machine, prompt string) conv.Run {
		t.Helper()
		var run conv.Run
		if code := hub.call("POST", "/api/v1/runs", conv.StartRequest{Machine: machine, Cwd: t.TempDir(), Prompt: prompt}, &run); code != 201 {
			t.Fatalf("start on %q: %d\n%s", machine, code, hub.log)
		}
		return run
	}
	local := start("", "lab:text hello from the hub")
	onB := start("b", "lab:single pick one")
	onC := start("c", "lab:slow tell me a story about zebracorns")
	if !strings.HasPrefix(onB.ID, "b~") || onB.Machine != "b" || !strings.HasPrefix(onC.ID, "c~") || local.Machine == "" || strings.Contains(local.ID, "~") {
		t.Fatalf("runs %s@%s %s@%s %s@%s; want b~…, c~… and a local id", local.ID, local.Machine, onB.ID, onB.Machine, onC.ID, onC.Machine)
	}

	var list httpapi.RunList
	hub.call("GET", "/api/v1/runs", nil, &list)
	seen := map[string]string{}
	for _, r := range list.Runs {
		seen[r.ID] = r.Machine
	}
	if seen[local.ID] != local.Machine || seen[onB.ID] != "b" || seen[onC.ID] != "c" || len(list.Machines) != 3 {
		t.Fatalf("the hub lists %v over %+v; want the three machines' runs", seen, list.Machines)
	}

	// b's question, pushed once to the hub's device naming b, answered
	// from the hub's API.
	p := hub.waitPage(onB.ID, "b's question through the hub", func(p conv.Page) bool { return p.PendingDialog.Pending() })
	got := svc.Next(t, 90*time.Second)
	var pl push.Payload
	if err := json.Unmarshal(got.Plaintext, &pl); err != nil || got.Err != nil {
		t.Fatalf("push: %v %v", err, got.Err)
	}
	if pl.Reason != push.ReasonBlocked || pl.RunID != onB.ID || pl.URL != "/runs/"+onB.ID || !strings.Contains(pl.Title, "on b") {
		t.Fatalf("push %+v; want b's blocked run, naming b, opening it at the hub", pl)
	}
	toolID := p.PendingDialog.ToolID
	if code := hub.call("POST", "/api/v1/runs/"+onB.ID+"/answer", conv.Answer{ToolID: toolID, Answers: []conv.QuestionAnswer{{Chosen: []int{0}}}}, nil); code != 204 {
		t.Fatalf("answer through the hub: %d", code)
	}
	hub.waitPage(onB.ID, "the outcome on b", func(p conv.Page) bool {
		ds := dialogMessages(p, toolID)
		return len(ds) == 1 && ds[0].Dialog.Outcome != nil && !p.PendingDialog.Pending()
	})

	// c: interrupt the slow story, reply, stop, resume: all through the hub.
	hub.waitPage(onC.ID, "c's run to work", func(p conv.Page) bool { return p.State == conv.StateWorking })
	if code := hub.call("POST", "/api/v1/runs/"+onC.ID+"/interrupt", nil, nil); code != 204 {
		t.Fatalf("interrupt through the hub: %d", code)
	}
	hub.waitPage(onC.ID, "c's run interrupted", func(p conv.Page) bool { return p.State == conv.StateNeedsInput })
	if code := hub.call("POST", "/api/v1/runs/"+onC.ID+"/reply", map[string]string{"text": "lab:text and then?"}, nil); code != 204 {
		t.Fatalf("reply through the hub: %d", code)
	}
	hub.waitPage(onC.ID, "the reply's answer on c", func(p conv.Page) bool {
		last := p.Messages[len(p.Messages)-1]
		return p.State == conv.StateNeedsInput && last.Role == conv.RoleAssistant && strings.Contains(last.Text, "and then?")
	})
	if code := hub.call("POST", "/api/v1/runs/"+onC.ID+"/stop", nil, nil); code != 204 {
		t.Fatalf("stop through the hub: %d", code)
	}
	hub.waitPage(onC.ID, "c's run ended", func(p conv.Page) bool { return p.State == conv.StateEnded })
	var resumed conv.Run
	if code := hub.call("POST", "/api/v1/runs/"+onC.ID+"/resume", nil, &resumed); code != 201 || !strings.HasPrefix(resumed.ID, "c~") || resumed.Machine != "c" {
		t.Fatalf("resume through the hub: %d %+v", code, resumed)
	}
	hub.waitPage(resumed.ID, "the resumed run to show the earlier turns", func(p conv.Page) bool {
		for _, m := range p.Messages {
			if strings.Contains(m.Text, "zebracorns") {
				return true
			}
		}
		return false
	})
	hub.call("POST", "/api/v1/runs/"+resumed.ID+"/stop", nil, nil)

	// The hub's history search finds c's session.
	var hist httpapi.SessionList
	claudetest.Poll(t, 30*time.Second, "c's session in the hub's search", func() bool {
		hub.call("GET", "/api/v1/sessions?q=zebracorns", nil, &hist)
		for _, s := range hist.Sessions {
			if s.Machine == "c" && strings.HasPrefix(s.ID, "c~") {
				return true
			}
		}
		return false
	})

	// Faults. The hub's client watches b's run; b is killed.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream := hub.events(ctx)
	killed := time.Now()
	b.kill()
	for e := range stream {
		if e.Type == conv.EventMachineChanged && e.Machine == "b" && peerStatus(hub, "b").Status == conv.MachineUnreachable {
			break
		}
	}
	t.Logf("b marked unreachable %v after it was killed", time.Since(killed).Round(time.Millisecond))
	hub.call("GET", "/api/v1/runs", nil, &list)
	seen = map[string]string{}
	for _, r := range list.Runs {
		seen[r.ID] = r.Machine
	}
	if seen[onB.ID] != "b" || seen[resumed.ID] != "c" || seen[local.ID] == "" {
		t.Fatalf("runs while b is down: %v; want b's kept as last seen, the others live", seen)
	}
	if code := hub.call("GET", "/api/v1/runs/"+onB.ID+"/messages", nil, nil); code != 503 {
		t.Fatalf("b's chat while it is down: %d; want 503", code)
	}
	for _, id := range []string{local.ID, onC.ID} {
		if code := hub.call("GET", "/api/v1/runs/"+id+"/messages", nil, nil); code != 200 {
			t.Fatalf("%s's chat while b is down: %d", id, code)
		}
	}

	// b restarts on its address and state: its run is adopted there and
	// the hub shows it live again on its own.
	b.start()
	claudetest.Poll(t, 30*time.Second, "b reachable again", func() bool { return peerStatus(hub, "b").Status == conv.MachineOK })
	p = hub.page(onB.ID)
	if p.State == conv.StateEnded || len(dialogMessages(p, toolID)) != 1 {
		t.Fatalf("b's run after its lab restarted: %s, %d messages; want it live with its answered question", p.State, len(p.Messages))
	}
	if code := hub.call("POST", "/api/v1/runs/"+onB.ID+"/reply", map[string]string{"text": "lab:text still there?"}, nil); code != 204 {
		t.Fatalf("reply to b's run after the restart: %d", code)
	}

	// b revokes the hub's token: the hub's row says so, with nobody asking.
	cli(t, "", "token", "revoke", "hub", "--state-dir", b.state)
	claudetest.Poll(t, 30*time.Second, "the hub to show b's token revoked", func() bool { return peerStatus(hub, "b").Status == conv.MachineRevoked })
	if code := hub.call("GET", "/api/v1/runs/"+onB.ID+"/messages", nil, nil); code != 503 {
		t.Fatalf("b's chat with the token revoked: %d; want 503, never the hub's own 401", code)
	}

	// One push in all: b's question. b has no device; the other runs'
	// turns ended, which the phone did not ask to hear of.
	select {
	case extra := <-svc.Received():
		var x push.Payload
		json.Unmarshal(extra.Plaintext, &x)
		t.Fatalf("a second push arrived: %+v", x)
	default:
	}
}
