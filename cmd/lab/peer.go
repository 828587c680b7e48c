package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"golang.org/x/term"

	"lab/internal/conv"
	"lab/internal/peer"
	"lab/internal/store"
)

func init() {
	commands["peer"] = command{summary: "add, list or remove the other labs whose runs this one shows", run: runPeer}
}

const peerAbout = `Actions:
  add NAME URL   make the lab at URL a peer named NAME (1-32 of a-z, 0-9, -):
                 its runs show here as NAME~<id>. The token comes from
                 stdin, or a prompt without echo on a terminal; create it on
                 the peer with: lab token create --relay NAME. It is tried
                 on the peer, stored in this lab's database and never shown
                 again.
  list           list the peers (never their tokens)
  remove NAME    forget a peer and its token

URL must be https, or http to this machine (loopback); plain http to
another host needs --allow-http. Flags may come anywhere. A running lab
picks up changes within seconds.`

// runPeer: lab peer add NAME URL | list | remove NAME.
func runPeer(ctx context.Context, args []string, env Env) error {
	fs := newFlags("peer", "add NAME URL | list | remove NAME [--state-dir D] [--allow-http]", peerAbout, env)
	stateFlag := fs.String("state-dir", "", "state directory (default $LAB_STATE_DIR or ~/.local/state/lab)")
	allowHTTP := fs.Bool("allow-http", false, "allow plain http to a host that is not loopback (a private network you trust: the token crosses it in clear)")
	verb, rest, err := parseAction(fs, "peer", []action{{"add", 2}, {"list", 0}, {"remove", 1}}, args, env)
	if err != nil {
		return err
	}
	dir, err := StateDir(*stateFlag, env.Getenv)
	if err != nil {
		return err
	}
	db, err := openForToken(ctx, dir, false, env)
	if err != nil {
		return err
	}
	defer db.Close()

	switch verb {
	case "add":
		p := store.Peer{Name: rest[0], URL: rest[1], AllowHTTP: *allowHTTP}
		if err := store.CheckPeerName(p.Name); err != nil {
			return err
		}
		u, err := peer.CheckURL(p.URL, p.AllowHTTP)
		if err != nil {
			return err
		}
		p.URL = u.String()
		if p.Token, err = readToken(env); err != nil {
			return err
		}
		probe := peer.Probe(ctx, nil, p)
		if conv.KindOf(probe) == conv.EInvalid {
			return probe // it answered, and refused the token
		}
		if _, err := db.AddPeer(ctx, p); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "added peer %s at %s: %s\n", p.Name, p.URL, peer.Describe(p.Name, probe))
		if probe != nil {
			fmt.Fprintln(env.Stderr, "lab will keep trying to reach it; its runs show once it answers")
		}
	case "list":
		list, err := db.Peers(ctx)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			fmt.Fprintln(env.Stdout, "no peers")
			return nil
		}
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tURL\tADDED")
		for _, p := range list {
			u := p.URL
			if p.AllowHTTP {
				u += " (plain http allowed)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", p.Name, u, tokenTime(p.CreatedAt))
		}
		return tw.Flush()
	case "remove":
		p, err := db.RemovePeer(ctx, rest[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "removed peer %s (%s); revoke its token on that lab too: lab token revoke NAME\n", p.Name, p.URL)
	}
	return nil
}

// readToken reads the peer's token: from a prompt without echo on a
// terminal, else the first line of stdin. Never from the command line,
// where other users' ps and the shell's history would see it.
func readToken(env Env) (string, error) {
	if f, ok := env.Stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(env.Stderr, "The peer's token (lab token create --relay NAME on it): ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(env.Stderr)
		if err != nil {
			return "", fmt.Errorf("read token: %w", err)
		}
		if len(b) == 0 {
			return "", errors.New("no token given")
		}
		return string(b), nil
	}
	tok, err := readSecretLine(env.Stdin, "stdin", "token")
	return strings.TrimSpace(tok), err
}
