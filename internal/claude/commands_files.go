package claude

import (
	"bufio"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"lab/internal/clikit"
	"lab/internal/conv"
)

// The operator's and the project's own slash commands, as Claude Code
// finds them (observed on 2.1.328 and 2.1.332, TestMenuMatchesTable):
//
//   - commands: every .md file under ~/.claude/commands (the operator's)
//     and <cwd>/.claude/commands (the project's); a file in a subfolder is
//     named folder:file (ns/deploy.md is /ns:deploy);
//   - skills: ~/.claude/skills/<name>/SKILL.md and
//     <cwd>/.claude/skills/<name>/SKILL.md, named by the frontmatter's
//     name (else the folder's), left out of the menu when the frontmatter
//     says user-invocable: false.
//
// The menu's description is the frontmatter's description, else the
// body's first line; argument-hint shows what text the command takes.

// Commands lists the slash commands a run of CLI version v offers in cwd
// with home as HOME: the project's, then the operator's, then the
// built-in ones (a built-in name wins over a custom one).
func Commands(v, home, cwd string) []conv.Command {
	var project, user []conv.Command
	if cwd != "" {
		project = customCommands(filepath.Join(cwd, ".claude"), conv.SourceProject)
	}
	if home != "" {
		user = customCommands(filepath.Join(home, ".claude"), conv.SourceUser)
	}
	return clikit.MergeCommands(BuiltinCommands(v), project, user)
}

// maxCommandFiles bounds how many files one folder contributes; a
// runaway folder must not make the menu slow.
const maxCommandFiles = 500

// customCommands reads the commands and skills under dir (a .claude
// folder), sorted by name.
func customCommands(dir, source string) []conv.Command {
	var out []conv.Command
	root := filepath.Join(dir, "commands")
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || len(out) >= maxCommandFiles {
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".md") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return nil
		}
		name := strings.ReplaceAll(strings.TrimSuffix(rel, ".md"), string(filepath.Separator), ":")
		if c, ok := commandFile(path, name, source); ok {
			out = append(out, c)
		}
		return nil
	})
	skills, _ := filepath.Glob(filepath.Join(dir, "skills", "*", "SKILL.md"))
	for _, path := range skills {
		if len(out) >= 2*maxCommandFiles {
			break
		}
		if c, ok := commandFile(path, filepath.Base(filepath.Dir(path)), source); ok {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b conv.Command) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// commandFile reads one command or skill file; false when it cannot be
// read, names no usable command, or is hidden from the menu.
func commandFile(path, name, source string) (conv.Command, bool) {
	f, err := os.Open(path)
	if err != nil {
		return conv.Command{}, false
	}
	defer f.Close()
	front, first := readFrontmatter(io.LimitReader(f, 64<<10))
	if n := front["name"]; n != "" && strings.HasSuffix(path, "SKILL.md") {
		name = n
	}
	if !validCommandName(name) || front["user-invocable"] == "false" {
		return conv.Command{}, false
	}
	desc := front["description"]
	if desc == "" {
		desc = first
	}
	return conv.Command{
		Name: name, Description: clip(desc, 300), Source: source,
		Args: conv.ArgsOptional, ArgsHint: clip(front["argument-hint"], 100),
	}, true
}

// readFrontmatter reads a "---" block of key: value lines at the top of a
// markdown file (quotes around a value dropped) and the first non-empty
// line after it.
func readFrontmatter(r io.Reader) (front map[string]string, first string) {
	front = map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	in, top := false, true
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case top && strings.TrimSpace(line) == "---":
			in, top = true, false
			continue
		case in && strings.TrimSpace(line) == "---":
			in = false
			continue
		case in:
			if k, v, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(k, " ") {
				front[strings.TrimSpace(k)] = unquote(strings.TrimSpace(v))
			}
			continue
		}
		top = false
		if t := strings.TrimSpace(line); t != "" {
			return front, t
		}
	}
	return front, ""
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// validCommandName accepts what can follow a slash on one line: no
// spaces, no control characters.
func validCommandName(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r == 0x7f {
			return false
		}
	}
	return true
}

// clip cuts s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
