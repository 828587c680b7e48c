package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"lab/internal/store"
)

func init() {
	commands["token"] = command{summary: "create, list or revoke API tokens for scripts", run: runToken}
}

const tokenAbout = `Actions:
  create NAME        print a new bearer token (shown only once); with
                     --relay, one for a hub that shows this lab's runs
                     (lab peer add on the hub): it reaches runs, history,
                     providers, folders and events only
  list               list tokens
  revoke NAME-or-ID  revoke a token at once

Flags may come anywhere. The database must exist already (lab creates it
when it first serves); --create makes a new one instead.`

// runToken: lab token create NAME | list | revoke NAME-or-ID.
func runToken(ctx context.Context, args []string, env Env) error {
	fs := newFlags("token", "create NAME | list | revoke NAME-or-ID [--state-dir D] [--create] [--relay]", tokenAbout, env)
	stateFlag := fs.String("state-dir", "", "state directory (default $LAB_STATE_DIR or ~/.local/state/lab)")
	create := fs.Bool("create", false, "create the database when there is none in the state directory")
	relay := fs.Bool("relay", false, "create: a relay token for a hub, limited to what a hub relays (not tokens, peers, push devices or the login)")
	verb, rest, err := parseAction(fs, "token", []action{{"create", 1}, {"list", 0}, {"revoke", 1}}, args, env)
	if err != nil {
		return err
	}
	dir, err := StateDir(*stateFlag, env.Getenv)
	if err != nil {
		return err
	}
	db, err := openForToken(ctx, dir, *create, env)
	if err != nil {
		return err
	}
	defer db.Close()

	switch verb {
	case "create":
		scope := ""
		if *relay {
			scope = store.ScopeRelay
		}
		secret, t, err := db.CreateScopedAPIToken(ctx, rest[0], scope)
		if err != nil {
			return err
		}
		// The secret alone on stdout, so `$(lab token create ci)` works.
		fmt.Fprintln(env.Stdout, secret)
		fmt.Fprintf(env.Stderr, "created token %s (id %s). It is shown only this once: store it now.\nUse it as: Authorization: Bearer <token>\n", t.Name, t.ID)
	case "list":
		list, err := db.APITokens(ctx)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			fmt.Fprintln(env.Stdout, "no API tokens")
			return nil
		}
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tSCOPE\tCREATED\tLAST USED")
		for _, t := range list {
			used := "never"
			if t.LastUsedAt != nil {
				used = tokenTime(*t.LastUsedAt)
			}
			scope := "all"
			if t.Scope != "" {
				scope = t.Scope
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.ID, t.Name, scope, tokenTime(t.CreatedAt), used)
		}
		return tw.Flush()
	case "revoke":
		t, err := db.RevokeAPIToken(ctx, rest[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "revoked token %s (id %s)\n", t.Name, t.ID)
	}
	return nil
}

func tokenTime(t time.Time) string { return t.Local().Format("2006-01-02 15:04") }

// openForToken opens the state directory's database and says on stderr
// which one it is: tokens only work on the server that reads the same
// file, and a state directory picked by default may not be the one lab
// serves from. A missing database is an error unless create is set, so a
// typo or a forgotten --state-dir never silently makes a new, unused one.
func openForToken(ctx context.Context, dir string, create bool, env Env) (*store.DB, error) {
	path := DBPath(dir)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) && !create {
		hint := ""
		if demo := DBPath(filepath.Join(dir, "demo")); fileExists(demo) {
			hint = fmt.Sprintf(" (lab demo keeps its database in %s: add --state-dir %s)", demo, filepath.Dir(demo))
		}
		return nil, fmt.Errorf("no lab database at %s%s; pass --state-dir (or set LAB_STATE_DIR) to the folder lab serves from, or --create to make a new database there", path, hint)
	}
	db, err := OpenStore(ctx, dir)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(env.Stderr, "using the database %s\n", path)
	return db, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
