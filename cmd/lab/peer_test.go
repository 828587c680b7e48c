package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lab/internal/store"
)

// TestPeerCommands adds, lists and removes peers with the CLI against a
// real lab (serving without any agent CLI: history and the API suffice),
// the token always from stdin, tried on the peer before it is stored.
func TestPeerCommands(t *testing.T) {
	peerState := t.TempDir()
	peerLab := serveLab(t, peerState, t.TempDir(), false, "--claude-bin", "/nonexistent/claude", "--codex-bin", "/nonexistent/codex")
	t.Cleanup(peerLab.stop)

	// The peer issues a relay token: printed alone on stdout, once.
	pe := newTestEnv(t, "")
	if err := pe.run("token", "create", "--relay", "hub", "--state-dir", peerState); err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(pe.stdout.String())
	if !strings.HasPrefix(token, store.APITokenPrefix) {
		t.Fatalf("token create --relay printed %q", pe.stdout)
	}
	if err := pe.run("token", "list", "--state-dir", peerState); err != nil || !strings.Contains(pe.stdout.String(), "relay") {
		t.Fatalf("token list: %v\n%s; want the hub's token with its scope", err, pe.stdout)
	}

	e := newTestEnv(t, "")
	if err := e.run("token", "create", "x", "--create"); err != nil { // the hub's database
		t.Fatal(err)
	}
	add := func(stdin string, args ...string) error {
		e.Stdin = strings.NewReader(stdin)
		return e.run(append([]string{"peer", "add"}, args...)...)
	}
	if err := add("lab_wrong\n", "build", peerLab.base); err == nil || !strings.Contains(err.Error(), "refuses this token") {
		t.Fatalf("a token the peer refuses: %v; want refused, nothing stored", err)
	}
	if err := add(token+"\n", "build", peerLab.base); err != nil {
		t.Fatalf("add: %v (%s)", err, e.stderr)
	}
	if !strings.Contains(e.stdout.String(), "accepted the token") || strings.Contains(e.stdout.String()+e.stderr.String(), token) {
		t.Fatalf("add said %q %q; want the token accepted and never shown", e.stdout, e.stderr)
	}
	// A peer that does not answer now is kept, with a warning.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String()
	ln.Close()
	if err := add(token+"\n", "box-2", down); err != nil || !strings.Contains(e.stdout.String(), "cannot be reached") {
		t.Fatalf("add an unreachable peer: %v %q; want it added, saying it cannot be reached", err, e.stdout)
	}
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{token, []string{"Build", peerLab.base}, "lowercase"},
		{token, []string{"far", "http://192.0.2.7:8080"}, "plain http"},
		{"", []string{"empty", peerLab.base}, "no token"},
		{token, []string{"build", peerLab.base}, "exists already"},
		{token, []string{"build", peerLab.base, token}, "usage"}, // never a token on the command line
	} {
		err := add(tc.stdin, tc.args...)
		if err == nil || !strings.Contains(err.Error()+e.stderr.String(), tc.want) {
			t.Errorf("peer add %q: %v; want an error about %q", tc.args, err, tc.want)
		}
	}
	if err := add(token, "lan", "http://192.0.2.7:8080", "--allow-http"); err != nil {
		t.Fatalf("--allow-http: %v", err)
	}

	if err := e.run("peer", "list"); err != nil {
		t.Fatal(err)
	}
	out := e.stdout.String()
	for _, want := range []string{"box-2", "build", peerLab.base, "lan", "plain http allowed"} {
		if !strings.Contains(out, want) {
			t.Errorf("list:\n%s\nwant %q", out, want)
		}
	}
	if strings.Contains(out, token) {
		t.Fatal("list shows a token")
	}
	if err := e.run("peer", "remove", "box-2"); err != nil {
		t.Fatal(err)
	}
	if err := e.run("peer", "remove", "box-2"); err == nil || !strings.Contains(err.Error(), "no peer") {
		t.Fatalf("remove twice: %v", err)
	}
	db, err := OpenStore(context.Background(), e.state)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	peers, _ := db.Peers(context.Background())
	if len(peers) != 2 || peers[0].Name != "build" || peers[0].Token != token {
		t.Fatalf("stored peers %+v; want build (with its token) and lan", peers)
	}
}

func TestTheDatabaseIsPrivate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lab.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := OpenStore(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Fatalf("database mode %o; want 600: it holds the peers' tokens", info.Mode().Perm())
	}
}

func TestMachineName(t *testing.T) {
	host, _ := os.Hostname()
	for _, tc := range []struct{ given, want string }{
		{"", host},
		{"  build box ", "build box"},
		{"line\nbreak", ""},
		{strings.Repeat("x", 65), ""},
	} {
		got, err := machineName(tc.given)
		if (tc.want == "") != (err != nil) || got != tc.want {
			t.Errorf("machineName(%q) = %q, %v; want %q", tc.given, got, err, tc.want)
		}
	}
}
