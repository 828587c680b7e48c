package main

import (
	"context"
	"flag"
	"fmt"
	"text/tabwriter"
	"time"
)

func init() {
	commands["token"] = command{summary: "create, list or revoke API tokens for scripts", run: runToken}
}

const tokenUsage = `usage:
  lab token create NAME        print a new bearer token (shown only once)
  lab token list               list tokens
  lab token revoke NAME-or-ID  revoke a token at once
flags (anywhere): --state-dir D`

// runToken: lab token create NAME | list | revoke NAME-or-ID.
func runToken(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("token", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	stateFlag := fs.String("state-dir", "", "state directory (default $LAB_STATE_DIR or ~/.local/state/lab)")
	fs.Usage = func() { fmt.Fprintln(env.Stderr, tokenUsage) }
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fs.Usage()
		return fmt.Errorf("token: want create, list or revoke")
	}
	verb, rest := pos[0], pos[1:]
	want := map[string]int{"create": 1, "list": 0, "revoke": 1}
	n, ok := want[verb]
	if !ok {
		fs.Usage()
		return fmt.Errorf("token: unknown action %q", verb)
	}
	if len(rest) != n {
		fs.Usage()
		return fmt.Errorf("token %s: want %d argument(s), got %d", verb, n, len(rest))
	}
	dir, err := StateDir(*stateFlag, env.Getenv)
	if err != nil {
		return err
	}
	db, err := OpenStore(ctx, dir)
	if err != nil {
		return err
	}
	defer db.Close()

	switch verb {
	case "create":
		secret, t, err := db.CreateAPIToken(ctx, rest[0])
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
		fmt.Fprintln(tw, "ID\tNAME\tCREATED\tLAST USED")
		for _, t := range list {
			used := "never"
			if t.LastUsedAt != nil {
				used = tokenTime(*t.LastUsedAt)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.ID, t.Name, tokenTime(t.CreatedAt), used)
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
