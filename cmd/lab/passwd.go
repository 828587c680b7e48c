package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

func init() {
	commands["passwd"] = command{summary: "set the operator password", run: runPasswd}
}

// maxPasswordInput bounds what is read from a file or stdin; any real
// password line is far shorter.
const maxPasswordInput = 64 << 10

// runPasswd: lab passwd [--state-dir D] [--password-file F]. The password
// comes from the file, else from stdin when it is not a terminal (for
// scripts), else from a prompt without echo, asked twice.
func runPasswd(ctx context.Context, args []string, env Env) error {
	fs := newFlags("passwd", "[--state-dir D] [--password-file F]", "Sets the operator password; reads stdin when it is not a terminal.", env)
	stateFlag := fs.String("state-dir", "", "state directory (default $LAB_STATE_DIR or ~/.local/state/lab)")
	file := fs.String("password-file", "", "read the password from the first line of this file")
	if err := parseFlags(fs, args, env); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("passwd takes no arguments, got %q", fs.Args())
	}
	dir, err := StateDir(*stateFlag, env.Getenv)
	if err != nil {
		return err
	}
	pw, err := readNewPassword(env, *file)
	if err != nil {
		return err
	}
	db, err := OpenStore(ctx, dir)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.SetPassword(ctx, pw); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "password set in %s; any browser sessions were signed out and known devices forgotten\n", DBPath(dir))
	return nil
}

func readNewPassword(env Env, file string) (string, error) {
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return "", fmt.Errorf("password file: %w", err)
		}
		defer f.Close()
		return readPasswordLine(f, "password file "+file)
	}
	if f, ok := env.Stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fd := int(f.Fd())
		return promptTwice(func(prompt string) (string, error) {
			fmt.Fprint(env.Stderr, prompt)
			b, err := term.ReadPassword(fd)
			fmt.Fprintln(env.Stderr)
			return string(b), err
		})
	}
	return readPasswordLine(env.Stdin, "stdin")
}

// readPasswordLine reads the first line of r without its line ending. Only the
// line ending is trimmed: spaces may be part of a password.
func readPasswordLine(r io.Reader, what string) (string, error) {
	return readSecretLine(r, what, "password")
}

// readSecretLine reads the first line of r (a secret, which noun names in
// errors) without its line ending.
func readSecretLine(r io.Reader, what, noun string) (string, error) {
	br := bufio.NewReader(io.LimitReader(r, maxPasswordInput))
	line, err := br.ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read %s from %s: %w", noun, what, err)
	}
	if err != nil && len(line) == maxPasswordInput {
		return "", fmt.Errorf("read %s from %s: the first line is longer than %d bytes", noun, what, maxPasswordInput)
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if line == "" {
		return "", fmt.Errorf("no %s in %s: its first line is empty", noun, what)
	}
	return line, nil
}

// promptTwice asks for the password and its confirmation.
func promptTwice(read func(prompt string) (string, error)) (string, error) {
	pw, err := read("New password: ")
	if err != nil {
		return "", fmt.Errorf("read password: %w", err)
	}
	if pw == "" {
		return "", errors.New("no password given")
	}
	again, err := read("Again: ")
	if err != nil {
		return "", fmt.Errorf("read password: %w", err)
	}
	if again != pw {
		return "", errors.New("the two passwords differ; nothing changed")
	}
	return pw, nil
}
