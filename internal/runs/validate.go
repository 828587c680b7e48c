package runs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"lab/internal/conv"
)

// MaxPromptBytes bounds a first prompt; it travels on the command line.
const MaxPromptBytes = 100_000

// validate checks the provider-neutral fields of a start request and
// returns it cleaned; the provider checks its own (CheckStart). Every
// failure is conv.EInvalid (or conv.ETooLarge) with a message for the
// operator.
func validate(req conv.StartRequest) (conv.StartRequest, error) {
	if req.Cwd == "" {
		return req, conv.Errorf(conv.EInvalid, "cwd is required")
	}
	if !filepath.IsAbs(req.Cwd) {
		return req, conv.Errorf(conv.EInvalid, "cwd must be an absolute path, got %q", req.Cwd)
	}
	req.Cwd = filepath.Clean(req.Cwd)
	fi, err := os.Stat(req.Cwd)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return req, conv.Errorf(conv.EInvalid, "cwd %s does not exist", req.Cwd)
	case err != nil:
		return req, conv.Wrap(conv.EInvalid, err, "cwd "+req.Cwd+" cannot be used")
	case !fi.IsDir():
		return req, conv.Errorf(conv.EInvalid, "cwd %s is not a directory", req.Cwd)
	}
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
