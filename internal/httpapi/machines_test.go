package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"lab/internal/conv"
	"lab/internal/peer"
	"lab/internal/store"
)

// A hub and its peers here are whole servers over real HTTP with real
// SQLite, the fake run layers beneath: the hub's peer.Hub talks to each
// peer's API exactly as it would to another machine's lab.

// linkPeer makes other a peer of h named name, through a relay token
// other issued, and returns that token.
func (h *harness) linkPeer(name string, other *harness) string {
	h.t.Helper()
	tok, _, err := other.db.CreateScopedAPIToken(context.Background(), fmt.Sprintf("hub-%s-%p", name, h), store.ScopeRelay)
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.hub.Add(context.Background(), store.Peer{Name: name, URL: other.ts.URL, Token: tok}); err != nil {
		h.t.Fatal(err)
	}
	return tok
}

// start starts a run on h's fake run layer.
func (h *harness) start(prompt string) conv.Run {
	h.t.Helper()
	run, err := h.runs.Start(context.Background(), conv.StartRequest{Cwd: h.t.TempDir(), Prompt: prompt})
	if err != nil {
		h.t.Fatal(err)
	}
	return run
}

// get decodes a 200 answer of h to path into v.
func (h *harness) get(bearer, path string, v any) {
	h.t.Helper()
	got := h.do(rq{method: "GET", path: path, bearer: bearer})
	if got.status != http.StatusOK {
		h.t.Fatalf("GET %s: %d %s", path, got.status, got.body)
	}
	if err := json.Unmarshal(got.body, v); err != nil {
		h.t.Fatalf("GET %s: %v in %s", path, err, got.body)
	}
}

func runIDs(runs []conv.Run) map[string]string {
	out := map[string]string{}
	for _, r := range runs {
		out[r.ID] = r.Machine
	}
	return out
}

func machineStatus(ms []conv.Machine, name string) string {
	for _, m := range ms {
		if m.Name == name {
			return m.Status
		}
	}
	return ""
}

func TestHubListsTheRunsOfEveryMachine(t *testing.T) {
	hub, a, b := newHarness(t, harnessOpt{}), newHarness(t, harnessOpt{}), newHarness(t, harnessOpt{})
	hub.start("here")
	a.start("on a")
	a.start("on a too")
	b.start("on b")
	hub.linkPeer("a", a)
	hub.linkPeer("b", b)
	bearer := hub.token("phone")

	var list RunList
	hub.get(bearer, "/api/v1/runs", &list)
	want := map[string]string{"r1": "here", "a~r1": "a", "a~r2": "a", "b~r1": "b"}
	if got := runIDs(list.Runs); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("runs by id and machine %v; want %v", got, want)
	}
	if len(list.Machines) != 3 || !list.Machines[0].Local || list.Machines[0].Name != "here" ||
		machineStatus(list.Machines, "a") != conv.MachineOK || machineStatus(list.Machines, "b") != conv.MachineOK {
		t.Fatalf("machines %+v; want here (local), a and b reachable", list.Machines)
	}
	// One machine's list: machine=<peer> is relayed, machine=<this one>
	// is this lab's own.
	var only RunList
	hub.get(bearer, "/api/v1/runs?machine=b", &only)
	if got := runIDs(only.Runs); len(got) != 1 || got["b~r1"] != "b" {
		t.Fatalf("machine=b: %v; want b's one run", got)
	}
	hub.get(bearer, "/api/v1/runs?machine=here", &only)
	if got := runIDs(only.Runs); len(got) != 1 || got["r1"] != "here" {
		t.Fatalf("machine=here: %v; want the local run only", got)
	}
	// One run, local or relayed, says its machine as the lists do.
	var one conv.Run
	if hub.get(bearer, "/api/v1/runs/r1", &one); one.Machine != "here" {
		t.Fatalf("GET a local run: machine %q; want here", one.Machine)
	}
	if hub.get(bearer, "/api/v1/runs/b~r1", &one); one.Machine != "b" || one.ID != "b~r1" {
		t.Fatalf("GET a peer's run: %s on %q; want b~r1 on b", one.ID, one.Machine)
	}
	if got := hub.do(rq{method: "GET", path: "/api/v1/runs?machine=nowhere", bearer: bearer}); got.status != 404 || !strings.Contains(got.errMsg(t), "no machine named") {
		t.Fatalf("machine=nowhere: %d %s; want 404", got.status, got.body)
	}
	// A peer asked with its relay token lists only its own runs, even
	// when it is a hub itself: no chains, no loops.
	a.linkPeer("b", b)
	tok := hub.linkPeer("a2", a)
	var own RunList
	a.get(tok, "/api/v1/runs", &own)
	if got := runIDs(own.Runs); len(got) != 2 {
		t.Fatalf("a to a relay token: %v; want its own two runs", got)
	}
	hub.get(bearer, "/api/v1/runs?machine=a2", &own)
	if got := runIDs(own.Runs); len(got) != 2 || got["a2~r1"] != "a2" {
		t.Fatalf("hub's machine=a2: %v; want a's own two runs, renamed", got)
	}
}

// A peer slower than the hub's list deadline is shown by the runs it
// listed last, and stays reachable: giving up on a list says nothing of
// the machine (its event stream does), so nothing greys a healthy peer.
func TestHubListPastItsDeadlineKeepsThePeerReachable(t *testing.T) {
	hub := newHarness(t, harnessOpt{hub: func(c *peer.Config) { c.ListTimeout = 100 * time.Millisecond }})
	a := newHarness(t, harnessOpt{})
	a.start("on a")
	hub.linkPeer("a", a)
	bearer := hub.token("phone")
	var list RunList
	hub.get(bearer, "/api/v1/runs", &list)
	if got := runIDs(list.Runs); got["a~r1"] != "a" {
		t.Fatalf("runs %v; want a's run", got)
	}

	a.runs.listDelay.Store(int64(time.Second))
	hub.get(bearer, "/api/v1/runs", &list)
	if got := runIDs(list.Runs); got["a~r1"] != "a" {
		t.Fatalf("runs of a slow peer %v; want its last listed run", got)
	}
	if st := machineStatus(list.Machines, "a"); st != conv.MachineOK {
		t.Fatalf("a slow peer's status %q; want it reachable", st)
	}
}

func TestRelayDrivesAPeersRun(t *testing.T) {
	hub, a := newHarness(t, harnessOpt{}), newHarness(t, harnessOpt{})
	hub.linkPeer("a", a)
	bearer := hub.token("phone")
	run := a.start("do it")
	id := "a~" + run.ID
	path := "/api/v1/runs/" + id

	// Reply, then page the chat through the hub.
	if got := hub.do(rq{method: "POST", path: path + "/reply", body: `{"text":"and more"}`, bearer: bearer}); got.status != 204 {
		t.Fatalf("reply: %d %s", got.status, got.body)
	}
	var p conv.Page
	hub.get(bearer, path+"/messages?limit=1", &p)
	if len(p.Messages) != 1 || p.Messages[0].Text != "and more" || !p.HasMoreBefore || p.TranscriptID != "t-"+run.ID {
		t.Fatalf("latest window: %+v; want the reply, more before", p)
	}
	if q := a.runs.query(); q.Limit != 1 {
		t.Fatalf("the peer was asked %+v; want limit 1 passed through", q)
	}
	hub.get(bearer, path+"/messages?before=2", &p)
	if len(p.Messages) != 1 || p.Messages[0].Text != "do it" {
		t.Fatalf("before=2: %+v; want the prompt", p.Messages)
	}

	// A question on the peer, answered from the hub.
	a.runs.ask(run.ID, conv.Dialog{ToolID: "toolu_9", Kind: conv.DialogQuestion, Answerable: true,
		Questions: []conv.Question{{Question: "Which?", Options: []conv.Option{{Label: "A"}, {Label: "B"}}}}})
	hub.get(bearer, path+"/messages", &p)
	if !p.PendingDialog.Pending() || p.PendingDialog.ToolID != "toolu_9" || p.State != conv.StateQuestion {
		t.Fatalf("page %+v; want the pending question", p)
	}
	// The peer's own checks answer, with their status and message.
	for _, tc := range []struct {
		body, want string
		status     int
	}{
		{`{"tool_id":"toolu_9","answers":[{"chosen":[7]}]}`, "out of range", 400},
		{`{"tool_id":"toolu_0","answers":[{"chosen":[0]}]}`, "gone or changed", 409},
		{`{"tool_id":"toolu_9"}`, "send answers", 400},
	} {
		if got := hub.do(rq{method: "POST", path: path + "/answer", body: tc.body, bearer: bearer}); got.status != tc.status || !strings.Contains(got.errMsg(t), tc.want) {
			t.Errorf("answer %s: %d %s; want %d about %q", tc.body, got.status, got.body, tc.status, tc.want)
		}
	}
	if got := hub.do(rq{method: "POST", path: path + "/answer", body: `{"tool_id":"toolu_9","answers":[{"chosen":[1]}]}`, bearer: bearer}); got.status != 204 {
		t.Fatalf("answer: %d %s", got.status, got.body)
	}
	a.get(a.token("direct"), "/api/v1/runs/"+run.ID+"/messages", &p)
	if last := p.Messages[len(p.Messages)-1]; last.Dialog == nil || last.Dialog.Outcome.Results[0].Chosen[0] != "B" {
		t.Fatalf("the peer's chat ends with %+v; want the answered question (B)", last)
	}

	if got := hub.do(rq{method: "POST", path: path + "/interrupt", bearer: bearer}); got.status != 204 {
		t.Fatalf("interrupt: %d %s", got.status, got.body)
	}
	if got := hub.do(rq{method: "POST", path: path + "/stop", bearer: bearer}); got.status != 204 {
		t.Fatalf("stop: %d %s", got.status, got.body)
	}
	if got := hub.do(rq{method: "POST", path: path + "/reply", body: `{"text":"late"}`, bearer: bearer}); got.status != 409 || !strings.Contains(got.errMsg(t), "ended") {
		t.Fatalf("reply to the stopped run: %d %s; want the peer's 409", got.status, got.body)
	}
	// Resume makes a new run on the peer; the hub names it.
	var resumed conv.Run
	got := hub.do(rq{method: "POST", path: path + "/resume", bearer: bearer})
	if got.status != 201 || json.Unmarshal(got.body, &resumed) != nil || resumed.ID != "a~r2" || resumed.Machine != "a" || resumed.SessionID != "a~t-"+run.ID {
		t.Fatalf("resume: %d %s; want run a~r2 on machine a", got.status, got.body)
	}
	for _, tc := range []struct{ path, want string }{
		{"/api/v1/runs/a~nope/messages", `no run "nope"`},
		{"/api/v1/runs/zz~r1/messages", `no machine named "zz"`},
		{"/api/v1/sessions/a~nope", `no session "nope"`},
	} {
		if got := hub.do(rq{method: "GET", path: tc.path, bearer: bearer}); got.status != 404 || !strings.Contains(got.errMsg(t), tc.want) {
			t.Errorf("GET %s: %d %s; want 404 %q", tc.path, got.status, got.body, tc.want)
		}
	}
}

// record wraps a peer's handler: it keeps the headers each request
// arrived with and serves two endpoints the API does not have, as ones
// added later would be: a JSON answer with ids at every depth, and an
// event stream that waits for the test between its events.
type record struct {
	mu      sync.Mutex
	headers []http.Header
	release chan struct{}
}

func (rc *record) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc.mu.Lock()
		rc.headers = append(rc.headers, r.Header.Clone())
		rc.mu.Unlock()
		w.Header().Set("Set-Cookie", "peer=1; Path=/")
		w.Header().Set("X-Peer-Only", "1")
		switch r.URL.Path {
		case "/api/v1/runs/r1/extra":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusAccepted)
			fmt.Fprint(w, `{"id":"x","run_id":"r1","machine":"peer-host","n":1,"items":[{"id":"c1","session_id":"","deep":{"id":"no"}},"s",{"machine":"m"}],"obj":{"id":"no"}}`)
		case "/api/v1/runs/r1/ws":
			// An upgrade: echo each line back, upper-cased, until EOF.
			if r.Header.Get("Upgrade") != "websocket" || r.Header.Get("Sec-WebSocket-Key") == "" {
				http.Error(w, "want an upgrade", http.StatusBadRequest)
				return
			}
			conn, brw, err := http.NewResponseController(w).Hijack()
			if err != nil {
				return
			}
			defer conn.Close()
			fmt.Fprint(brw, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ok\r\n\r\n")
			brw.Flush()
			for {
				line, err := brw.ReadString('\n')
				if err != nil {
					return
				}
				fmt.Fprint(brw, strings.ToUpper(line))
				brw.Flush()
			}
		case "/api/v1/runs/r1/tail":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: line\ndata: one\n\n")
			http.NewResponseController(w).Flush()
			<-rc.release
			fmt.Fprint(w, "event: line\ndata: two\n\n")
		default:
			next.ServeHTTP(w, r)
		}
	})
}

func TestRelayForwardsAnyEndpointWithOnlyThePeersToken(t *testing.T) {
	rc := &record{release: make(chan struct{})}
	hub := newHarness(t, harnessOpt{})
	a := newHarness(t, harnessOpt{server: func(s *http.Server) { s.Handler = rc.wrap(s.Handler) }})
	tok := hub.linkPeer("a", a)
	a.start("x")
	cookie, csrf := hub.login()

	// A browser's write: cookie, CSRF header, same origin.
	got := hub.do(rq{method: "POST", path: "/api/v1/runs/a~r1/reply", body: `{"text":"hi"}`, cookie: cookie, csrf: csrf, origin: hub.ts.URL,
		header: map[string]string{"Sec-Fetch-Site": "same-origin", "Referer": hub.ts.URL + "/runs/a~r1", "X-Forwarded-For": "10.9.9.9"}})
	if got.status != 204 {
		t.Fatalf("reply: %d %s", got.status, got.body)
	}
	if got.header.Get("Set-Cookie") != "" || got.header.Get("X-Peer-Only") != "" {
		t.Fatalf("the hub passed on the peer's headers %v", got.header)
	}
	rc.mu.Lock()
	seen := rc.headers[len(rc.headers)-1]
	rc.mu.Unlock()
	if seen.Get("Authorization") != "Bearer "+tok {
		t.Fatalf("the peer got Authorization %q; want its own token", seen.Get("Authorization"))
	}
	for _, k := range []string{"Cookie", CSRFHeader, "Origin", "Referer", "Sec-Fetch-Site", "X-Forwarded-For"} {
		if v := seen.Get(k); v != "" {
			t.Errorf("the peer got %s: %q; want none of the operator's", k, v)
		}
	}

	// A body over the hub's cap is refused by the hub, whole.
	big := `{"text":"` + strings.Repeat("x", DefaultMaxBodyBytes) + `"}`
	if got := hub.do(rq{method: "POST", path: "/api/v1/runs/a~r1/reply", body: big, bearer: hub.token("big")}); got.status != 413 {
		t.Fatalf("an oversized reply: %d %s; want 413", got.status, got.body)
	}

	// An endpoint the hub does not know: status, Retry-After and the JSON
	// rule (ids at the top and in list rows prefixed, machine renamed,
	// nothing deeper touched).
	got = hub.do(rq{method: "GET", path: "/api/v1/runs/a~r1/extra", cookie: cookie})
	want := `{"id":"a~x","run_id":"a~r1","machine":"a","n":1,"items":[{"id":"a~c1","session_id":"","deep":{"id":"no"}},"s",{"machine":"a"}],"obj":{"id":"no"}}`
	if got.status != 202 || got.header.Get("Retry-After") != "7" || string(got.body) != want {
		t.Fatalf("extra: %d %v %s; want 202, Retry-After 7, %s", got.status, got.header, got.body, want)
	}

	// A stream comes through as it is written, not when it ends.
	req, _ := http.NewRequest("GET", hub.ts.URL+"/api/v1/runs/a~r1/tail", nil)
	req.AddCookie(&http.Cookie{Name: SessionCookie, Value: cookie})
	res, err := hub.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("tail: Content-Type %q", res.Header.Get("Content-Type"))
	}
	frames := readFrames(bufio.NewReader(res.Body))
	if f, _ := next(t, frames); f.data != "one" {
		t.Fatalf("first event %+v; want one, before the peer sends more", f)
	}
	close(rc.release)
	if f, _ := next(t, frames); f.data != "two" {
		t.Fatalf("second event %+v", f)
	}

	// An upgraded connection (a terminal, say) is passed through both ways.
	conn, err := net.Dial("tcp", hub.ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /api/v1/runs/a~r1/ws HTTP/1.1\r\nHost: %s\r\nCookie: %s=%s\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: k\r\nSec-WebSocket-Version: 13\r\n\r\n",
		hub.ts.Listener.Addr(), SessionCookie, cookie)
	br := bufio.NewReader(conn)
	up, err := http.ReadResponse(br, nil)
	if err != nil || up.StatusCode != http.StatusSwitchingProtocols || up.Header.Get("Sec-WebSocket-Accept") != "ok" {
		t.Fatalf("upgrade through the hub: %v %+v", err, up)
	}
	fmt.Fprint(conn, "ls -la\n")
	if line, err := br.ReadString('\n'); err != nil || line != "LS -LA\n" {
		t.Fatalf("echo through the hub: %q %v", line, err)
	}
}

func TestPeerEventsReachTheHubsClients(t *testing.T) {
	hub, a := newHarness(t, harnessOpt{}), newHarness(t, harnessOpt{})
	run := a.start("x")
	hub.linkPeer("a", a)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, frames := hub.openStream(ctx, hub.client, rq{bearer: hub.token("phone")})
	poll(t, "the hub to follow a", func() bool { return a.srv.broker.Subscribers() == 1 })
	if err := a.runs.Reply(ctx, run.ID, "more"); err != nil {
		t.Fatal(err)
	}
	for {
		f, ok := next(t, frames)
		if !ok {
			t.Fatal("the hub's stream ended")
		}
		var e conv.Event
		json.Unmarshal([]byte(f.data), &e)
		if f.event == conv.EventMessagesChanged && e.RunID == "a~"+run.ID && e.State == conv.StateWorking {
			break
		}
	}
}

func TestARelayTokenHearsOnlyItsLabsOwnEvents(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	relay, _, err := h.db.CreateScopedAPIToken(context.Background(), "hub", store.ScopeRelay)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, frames := h.openStream(ctx, h.client, rq{bearer: relay})
	_ = res
	h.srv.broker.Publish(conv.Event{Type: conv.EventRunChanged, RunID: "b~r1"})
	h.srv.broker.Publish(conv.Event{Type: conv.EventMachineChanged, Machine: "b"})
	h.srv.broker.Publish(conv.Event{Type: conv.EventRunChanged, RunID: "r1"})
	for {
		f, _ := next(t, frames)
		if f.event == "" || f.event == conv.EventHeartbeat {
			continue // the retry hint, the first heartbeat
		}
		if !strings.Contains(f.data, `"run_id":"r1"`) {
			t.Fatalf("a relay token heard %+v; want only this lab's own run r1", f)
		}
		break
	}
}

func TestARelayTokenReachesOnlyWhatAHubRelays(t *testing.T) {
	h, b := newHarness(t, harnessOpt{}), newHarness(t, harnessOpt{})
	h.linkPeer("b", b)
	relay, _, err := h.db.CreateScopedAPIToken(context.Background(), "hub", store.ScopeRelay)
	if err != nil {
		t.Fatal(err)
	}
	h.start("x")
	for _, tc := range []struct {
		method, path, body string
		want               int
	}{
		{"GET", "/api/v1/runs", "", 200},
		{"GET", "/api/v1/runs/r1/messages", "", 200},
		{"POST", "/api/v1/runs/r1/reply", `{"text":"go on"}`, 204},
		{"GET", "/api/v1/sessions", "", 200},
		{"GET", "/api/v1/providers", "", 200},
		{"GET", "/api/v1/push/devices", "", 403},
		{"POST", "/api/v1/push/presence", `{"device_id":"d","run_id":"r1","visible":true}`, 403},
		{"GET", "/api/v1/peers", "", 403},
		{"POST", "/api/v1/peers", `{"name":"x","url":"https://x","token":"lab_x"}`, 403},
		{"DELETE", "/api/v1/peers/b", "", 403},
		{"POST", "/api/v1/auth/logout", "", 403},
		// Nor may it reach this lab's own peers.
		{"GET", "/api/v1/runs/b~r1/messages", "", 403},
		{"GET", "/api/v1/runs?machine=b", "", 403},
	} {
		got := h.do(rq{method: tc.method, path: tc.path, body: tc.body, bearer: relay})
		if got.status != tc.want {
			t.Errorf("%s %s with a relay token: %d %s; want %d", tc.method, tc.path, got.status, got.body, tc.want)
		}
	}
	if !h.hub.Has("b") {
		t.Fatal("the relay token removed a peer")
	}
}

func TestAPeerThatGoesAwayIsShownAndComesBack(t *testing.T) {
	hub, a, b := newHarness(t, harnessOpt{}), newHarness(t, harnessOpt{}), newHarness(t, harnessOpt{})
	a.start("on a")
	b.start("on b")
	hub.linkPeer("a", a)
	hub.linkPeer("b", b)
	bearer := hub.token("phone")
	var list RunList
	hub.get(bearer, "/api/v1/runs", &list)
	poll(t, "the hub to follow a", func() bool { return a.srv.broker.Subscribers() == 1 })

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, frames := hub.openStream(ctx, hub.client, rq{bearer: bearer})
	// a dies: its listener and every connection go at once, as when the
	// process is killed.
	addr := a.ts.Listener.Addr().String()
	killed := time.Now()
	a.ts.Listener.Close()
	a.ts.CloseClientConnections()
	for {
		f, ok := next(t, frames)
		if !ok {
			t.Fatal("the hub's stream ended")
		}
		if f.event == conv.EventMachineChanged && strings.Contains(f.data, `"machine":"a"`) {
			break
		}
	}
	t.Logf("a marked unreachable %v after it went away", time.Since(killed))
	hub.get(bearer, "/api/v1/runs", &list)
	if got := runIDs(list.Runs); got["a~r1"] != "a" || got["b~r1"] != "b" {
		t.Fatalf("runs while a is away: %v; want a's last known run kept, b's live", got)
	}
	if machineStatus(list.Machines, "a") != conv.MachineUnreachable || machineStatus(list.Machines, "b") != conv.MachineOK {
		t.Fatalf("machines %+v; want a unreachable, b fine", list.Machines)
	}
	for _, m := range list.Machines {
		if m.Name == "a" && (m.Since == nil || !strings.Contains(m.Error, "cannot be reached")) {
			t.Fatalf("a's row %+v; want since when and why", m)
		}
	}
	if got := hub.do(rq{method: "GET", path: "/api/v1/runs/a~r1/messages", bearer: bearer}); got.status != 503 || !strings.Contains(got.errMsg(t), "machine a cannot be reached") {
		t.Fatalf("a's chat while away: %d %s; want 503 naming the machine", got.status, got.body)
	}
	if got := hub.do(rq{method: "GET", path: "/api/v1/runs/b~r1/messages", bearer: bearer}); got.status != 200 {
		t.Fatalf("b's chat while a is away: %d %s", got.status, got.body)
	}

	// a comes back on its address (a restart): the hub finds it alone.
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	back := &httptest.Server{Listener: l, Config: &http.Server{Handler: a.srv}}
	back.Start()
	defer func() { a.srv.Drain(); back.Close() }()
	a.start("after the restart")
	poll(t, "a to be reachable again", func() bool {
		hub.get(bearer, "/api/v1/runs", &list)
		return machineStatus(list.Machines, "a") == conv.MachineOK && runIDs(list.Runs)["a~r2"] == "a"
	})
	poll(t, "the hub to follow a again", func() bool { return a.srv.broker.Subscribers() == 1 })
}

func TestARevokedTokenShowsInThePeersRow(t *testing.T) {
	hub := newHarness(t, harnessOpt{})
	a := newHarness(t, harnessOpt{config: func(c *Config) { c.Heartbeat = 20 * time.Millisecond }})
	a.start("x")
	tok := hub.linkPeer("a", a)
	bearer := hub.token("phone")
	poll(t, "the hub to follow a", func() bool { return a.srv.broker.Subscribers() == 1 })
	issued, err := a.db.CheckAPIToken(context.Background(), tok)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.db.RevokeAPIToken(context.Background(), issued.ID); err != nil {
		t.Fatal(err)
	}
	// The peer ends the hub's event stream and refuses it again: the
	// peer's row says so with nobody asking for anything.
	var peers PeerList
	poll(t, "the hub to see the token refused", func() bool {
		hub.get(bearer, "/api/v1/peers", &peers)
		return len(peers.Peers) == 1 && peers.Peers[0].Status == conv.MachineRevoked
	})
	// The hub's client is never sent to its login by a peer's 401.
	got := hub.do(rq{method: "GET", path: "/api/v1/runs/a~r1/messages", bearer: bearer})
	if got.status != 503 || !strings.Contains(got.errMsg(t), "refuses this lab's token") {
		t.Fatalf("after revoking: %d %s; want 503 saying the token is refused", got.status, got.body)
	}
	hub.get(bearer, "/api/v1/peers", &peers)
	if len(peers.Peers) != 1 || peers.Peers[0].Status != conv.MachineRevoked || peers.Machine != "here" {
		t.Fatalf("peers %+v; want a revoked", peers)
	}
	if strings.Contains(fmt.Sprint(peers), "lab_") {
		t.Fatalf("the peers list shows a token: %+v", peers)
	}
	// Adding a peer with a token it refuses is refused.
	got = hub.do(rq{method: "POST", path: "/api/v1/peers", body: `{"name":"a2","url":"` + a.ts.URL + `","token":"lab_wrong"}`, bearer: bearer})
	if got.status != 400 || !strings.Contains(got.errMsg(t), "refuses this token") {
		t.Fatalf("add with a wrong token: %d %s; want 400", got.status, got.body)
	}
	for _, body := range []string{
		`{"name":"Bad","url":"https://x","token":"lab_x"}`,
		`{"name":"c","url":"http://192.0.2.1:8080","token":"lab_x"}`,
		`{"name":"c","url":"ftp://x","token":"lab_x"}`,
		`{"name":"here","url":"https://x","token":"lab_x"}`,
		`{"name":"c","url":"https://x"}`,
	} {
		if got := hub.do(rq{method: "POST", path: "/api/v1/peers", body: body, bearer: bearer}); got.status != 400 {
			t.Errorf("add %s: %d %s; want 400", body, got.status, got.body)
		}
	}
	if got := hub.do(rq{method: "DELETE", path: "/api/v1/peers/a", bearer: bearer}); got.status != 204 {
		t.Fatalf("remove: %d %s", got.status, got.body)
	}
	var list RunList
	hub.get(bearer, "/api/v1/runs", &list)
	if len(list.Runs) != 0 || len(list.Machines) != 1 {
		t.Fatalf("after removing a: %+v; want neither its runs nor its row", list)
	}
}

func TestStartAndListOnAChosenMachine(t *testing.T) {
	hub, a := newHarness(t, harnessOpt{}), newHarness(t, harnessOpt{})
	hub.linkPeer("a", a)
	bearer := hub.token("phone")
	dir := t.TempDir()
	got := hub.do(rq{method: "POST", path: "/api/v1/runs", body: `{"cwd":"` + dir + `","prompt":"hello","machine":"a"}`, bearer: bearer})
	var run conv.Run
	if got.status != 201 || json.Unmarshal(got.body, &run) != nil || run.ID != "a~r1" || run.Machine != "a" {
		t.Fatalf("start on a: %d %s; want run a~r1 on a", got.status, got.body)
	}
	if _, err := a.runs.Messages(context.Background(), "r1", conv.Query{Limit: 1}); err != nil {
		t.Fatalf("the run is not on a: %v", err)
	}
	got = hub.do(rq{method: "POST", path: "/api/v1/runs", body: `{"cwd":"/nope","machine":"a"}`, bearer: bearer})
	if got.status != 400 || !strings.Contains(got.errMsg(t), "not a directory") {
		t.Fatalf("a bad start on a: %d %s; want a's 400", got.status, got.body)
	}
	if got := hub.do(rq{method: "POST", path: "/api/v1/runs", body: `{"cwd":"/","machine":"zz"}`, bearer: bearer}); got.status != 400 {
		t.Fatalf("start on an unknown machine: %d %s; want 400", got.status, got.body)
	}
	got = hub.do(rq{method: "POST", path: "/api/v1/runs", body: `{"cwd":"` + dir + `","machine":"here"}`, bearer: bearer})
	if got.status != 201 || json.Unmarshal(got.body, &run) != nil || run.ID != "r1" || run.Machine != "here" {
		t.Fatalf("start here by name: %d %s", got.status, got.body)
	}
	// Attach on a: its processes listed with the rest, attached there.
	var ext ExternalList
	hub.get(bearer, "/api/v1/external-sessions", &ext)
	if len(ext.Sessions) != 2 || ext.Sessions[0].Machine != "here" || ext.Sessions[1].Machine != "a" || ext.Sessions[1].SessionID != "a~ext-1" {
		t.Fatalf("external sessions %+v; want one here and one on a", ext.Sessions)
	}
	got = hub.do(rq{method: "POST", path: "/api/v1/runs/attach", body: `{"pid":4242,"machine":"a"}`, bearer: bearer})
	if got.status != 201 || json.Unmarshal(got.body, &run) != nil || run.ID != "a~r2" || run.Attached == nil {
		t.Fatalf("attach on a: %d %s", got.status, got.body)
	}
	// Lists of one machine's: relayed as they are.
	var folders conv.FolderList
	hub.get(bearer, "/api/v1/folders?machine=a&q=~/", &folders)
	if folders.Home != a.folderRoot {
		t.Fatalf("a's folders: home %q; want a's %q", folders.Home, a.folderRoot)
	}
	var providers ProviderList
	hub.get(bearer, "/api/v1/providers?machine=a", &providers)
}

func TestHistoryAcrossMachines(t *testing.T) {
	hub, a := newHarness(t, harnessOpt{}), newHarness(t, harnessOpt{})
	hub.linkPeer("a", a)
	bearer := hub.token("phone")
	base := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	write := func(h *harness, id, title string, minute int) {
		p := filepath.Join(h.sessions.dir, id+".jsonl")
		if err := os.WriteFile(p, []byte(title+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		at := base.Add(time.Duration(minute) * time.Minute)
		os.Chtimes(p, at, at)
	}
	// Interleaved in time: here 1, 3, 5; a 2, 4 (a's 4 mentions deploy).
	write(hub, "h1", "fix tests", 1)
	write(hub, "h3", "deploy the site", 3)
	write(hub, "h5", "write docs", 5)
	write(a, "a2", "refactor", 2)
	write(a, "a4", "deploy the api", 4)

	var page SessionList
	hub.get(bearer, "/api/v1/sessions?limit=2", &page)
	ids := func() string {
		var s []string
		for _, x := range page.Sessions {
			s = append(s, x.ID+"@"+x.Machine)
		}
		return strings.Join(s, " ")
	}
	if ids() != "h5@here a~a4@a" || page.Total != 5 || !page.HasMore {
		t.Fatalf("first page: %s total %d more %v; want h5 a~a4, 5 in all, more", ids(), page.Total, page.HasMore)
	}
	hub.get(bearer, "/api/v1/sessions?limit=2&offset=2", &page)
	if ids() != "h3@here a~a2@a" || !page.HasMore {
		t.Fatalf("second page: %s; want h3 a~a2", ids())
	}
	hub.get(bearer, "/api/v1/sessions?limit=2&offset=4", &page)
	if ids() != "h1@here" || page.HasMore {
		t.Fatalf("last page: %s more %v; want h1, no more", ids(), page.HasMore)
	}
	hub.get(bearer, "/api/v1/sessions?q=deploy", &page)
	if ids() != "a~a4@a h3@here" || page.Total != 2 {
		t.Fatalf("search: %s; want both deploys, newest first", ids())
	}
	// A peer's session opens through the hub.
	var s conv.Session
	hub.get(bearer, "/api/v1/sessions/a~a4", &s)
	if s.ID != "a~a4" || s.Machine != "a" || s.Title != "deploy the api" {
		t.Fatalf("a's session: %+v", s)
	}
	var p conv.Page
	hub.get(bearer, "/api/v1/sessions/a~a4/messages", &p)
	if len(p.Messages) != 1 || p.Messages[0].Text != "deploy the api" {
		t.Fatalf("a's session's chat: %+v", p)
	}
}

func TestBulkActionsAcrossMachines(t *testing.T) {
	hub, a := newHarness(t, harnessOpt{}), newHarness(t, harnessOpt{})
	hub.linkPeer("a", a)
	bearer := hub.token("phone")
	hub.start("")
	a.start("")
	a.start("")
	ctx := context.Background()
	hub.runs.Stop(ctx, "r1")
	a.runs.Stop(ctx, "r1")
	got := hub.do(rq{method: "POST", path: "/api/v1/runs/archive", body: `{"ids":["r1","a~r1","a~r2","zz~r9"]}`, bearer: bearer})
	var res conv.BulkResult
	if got.status != 200 || json.Unmarshal(got.body, &res) != nil {
		t.Fatalf("archive: %d %s", got.status, got.body)
	}
	if fmt.Sprint(res.Done) != "[r1 a~r1]" || len(res.Skipped) != 2 {
		t.Fatalf("archive: %+v; want r1 and a~r1 done, a~r2 (live) and zz~r9 (unknown) skipped", res)
	}
	var list RunList
	hub.get(bearer, "/api/v1/runs?archived=true", &list)
	if got := runIDs(list.Runs); len(got) != 2 || got["a~r1"] != "a" {
		t.Fatalf("archived: %v; want r1 and a~r1", got)
	}
}
