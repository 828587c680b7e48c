package runs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"lab/internal/conv"
	"lab/internal/folders"
)

// MaxPromptBytes bounds a first prompt; it travels on the command line.
const MaxPromptBytes = 100_000

// validate checks the provider-neutral fields of a start request and
// returns it cleaned (a leading "~" in the folder becomes home); the
// provider checks its own (CheckStart). Every failure is conv.EInvalid
// (or conv.ETooLarge) with a message for the operator.
func validate(req conv.StartRequest, home string) (conv.StartRequest, error) {
	cwd, err := checkFolder(req.Cwd, home)
	if err != nil {
		return req, err
	}
	req.Cwd = cwd
	req.Prompt = strings.ReplaceAll(req.Prompt, "\r\n", "\n")
	if len(req.Prompt) > MaxPromptBytes {
		return req, conv.Errorf(conv.ETooLarge, "prompt is longer than %d bytes", MaxPromptBytes)
	}
	if !utf8.ValidString(req.Prompt) {
		return req, conv.Errorf(conv.EInvalid, "prompt is not valid UTF-8 text")
	}
	for _, r := range req.Prompt {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			return req, conv.Errorf(conv.EInvalid, "prompt contains a control character (U+%04X); only tab and newline are allowed", r)
		}
	}
	return req, nil
}

// checkFolder expands a leading "~" and checks that the result is an
// existing directory, naming the folder as typed and as resolved in every
// error.
func checkFolder(typed, home string) (string, error) {
	if strings.TrimSpace(typed) == "" {
		return "", conv.Errorf(conv.EInvalid, "cwd is required")
	}
	cwd := folders.Expand(typed, home)
	name := cwd
	if cwd != typed {
		name = typed + " (" + cwd + ")"
	}
	if !filepath.IsAbs(cwd) {
		return "", conv.Errorf(conv.EInvalid, "cwd must be an absolute path or start with ~/, got %q", typed)
	}
	cwd = filepath.Clean(cwd)
	fi, err := os.Stat(cwd)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", conv.Errorf(conv.EInvalid, "the folder %s does not exist", name)
	case err != nil:
		return "", conv.Wrap(conv.EInvalid, err, "the folder "+name+" cannot be used")
	case !fi.IsDir():
		return "", conv.Errorf(conv.EInvalid, "%s is not a folder", name)
	}
	return cwd, nil
}
