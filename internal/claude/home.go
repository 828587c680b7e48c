package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ClaudeJSONPath is the CLI's per-user config file under home.
func ClaudeJSONPath(home string) string { return filepath.Join(home, ".claude.json") }

// TrustFolder marks cwd as trusted (projects[cwd].hasTrustDialogAccepted)
// in the ~/.claude.json at path, so the CLI started there skips the
// folder-trust screen. Every other key, and every other field of the
// project entry, is kept byte for byte. A missing file is created; an
// invalid one is left alone and reported.
func TrustFolder(path, cwd string) error {
	return homeEditJSON(path, func(top map[string]json.RawMessage) (bool, error) {
		return homeSetTrust(top, cwd)
	})
}

// SeedHome prepares an isolated HOME (tests, the demo) so the CLI starts
// straight at its prompt: onboarding done, a theme chosen, apiKey approved
// and each cwd trusted. Never call it on the operator's real home: it
// answers first-run questions on their behalf.
func SeedHome(home, apiKey string, cwds ...string) error {
	return homeEditJSON(ClaudeJSONPath(home), func(top map[string]json.RawMessage) (bool, error) {
		top["hasCompletedOnboarding"] = json.RawMessage("true")
		if _, ok := top["theme"]; !ok {
			top["theme"] = json.RawMessage(`"dark"`)
		}
		var responses struct {
			Approved []string `json:"approved"`
			Rejected []string `json:"rejected"`
		}
		if raw, ok := top["customApiKeyResponses"]; ok {
			if err := json.Unmarshal(raw, &responses); err != nil {
				return false, fmt.Errorf("customApiKeyResponses: %w", err)
			}
		}
		// The CLI remembers a key by its last 20 characters; list both
		// forms so either reading finds it.
		for _, k := range []string{apiKey, homeKeyTail(apiKey, 20)} {
			if k != "" && !homeHas(responses.Approved, k) {
				responses.Approved = append(responses.Approved, k)
			}
		}
		if responses.Rejected == nil {
			responses.Rejected = []string{}
		}
		b, err := json.Marshal(responses)
		if err != nil {
			return false, err
		}
		top["customApiKeyResponses"] = b
		for _, cwd := range cwds {
			if _, err := homeSetTrust(top, cwd); err != nil {
				return false, err
			}
		}
		return true, nil
	})
}

func homeKeyTail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

func homeHas(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// homeSetTrust sets projects[cwd].hasTrustDialogAccepted = true, reporting
// whether anything changed.
func homeSetTrust(top map[string]json.RawMessage, cwd string) (bool, error) {
	if !filepath.IsAbs(cwd) {
		return false, fmt.Errorf("trust %q: not an absolute path", cwd)
	}
	projects := map[string]json.RawMessage{}
	if raw, ok := top["projects"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &projects); err != nil {
			return false, fmt.Errorf("projects: %w", err)
		}
	}
	entry := map[string]json.RawMessage{}
	if raw, ok := projects[cwd]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &entry); err != nil {
			return false, fmt.Errorf("projects[%q]: %w", cwd, err)
		}
	}
	if string(entry["hasTrustDialogAccepted"]) == "true" {
		return false, nil
	}
	entry["hasTrustDialogAccepted"] = json.RawMessage("true")
	var err error
	if projects[cwd], err = json.Marshal(entry); err != nil {
		return false, err
	}
	if top["projects"], err = json.Marshal(projects); err != nil {
		return false, err
	}
	return true, nil
}

// homeEditJSON applies edit to the JSON object in the file at path and
// writes it back atomically (a temp file in the same directory, then
// rename), keeping the file's mode and following a symlink to its target.
// The CLI rewrites this file itself; if the file changes between our read
// and our rename we start over, so its write is not lost.
func homeEditJSON(path string, edit func(map[string]json.RawMessage) (bool, error)) error {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	for attempt := 0; attempt < 5; attempt++ {
		before, err := os.ReadFile(path)
		mode := fs.FileMode(0o600)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			before = nil
		case err != nil:
			return fmt.Errorf("read %s: %w", path, err)
		default:
			if fi, err := os.Stat(path); err == nil {
				mode = fi.Mode().Perm()
			}
		}
		top := map[string]json.RawMessage{}
		if len(bytes.TrimSpace(before)) > 0 {
			if err := json.Unmarshal(before, &top); err != nil {
				return fmt.Errorf("%s is not a JSON object, leaving it alone: %w", path, err)
			}
		}
		changed, err := edit(top)
		if err != nil {
			return fmt.Errorf("edit %s: %w", path, err)
		}
		if !changed {
			return nil
		}
		out, err := json.MarshalIndent(top, "", "  ")
		if err != nil {
			return err
		}
		tmp, err := homeWriteTemp(filepath.Dir(path), ".claude.json.lab-*", append(out, '\n'), mode)
		if err != nil {
			return err
		}
		now, err := os.ReadFile(path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			os.Remove(tmp)
			return fmt.Errorf("read %s: %w", path, err)
		}
		if !bytes.Equal(now, before) {
			os.Remove(tmp)
			continue
		}
		if err := os.Rename(tmp, path); err != nil {
			os.Remove(tmp)
			return fmt.Errorf("replace %s: %w", path, err)
		}
		return nil
	}
	return fmt.Errorf("%s kept changing under us; gave up editing it", path)
}

// homeWriteTemp writes data to a new file matching pattern in dir, synced and
// with mode, and returns its name.
func homeWriteTemp(dir, pattern string, data []byte, mode fs.FileMode) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	name := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(mode)
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(name)
		return "", werr
	}
	return name, nil
}
