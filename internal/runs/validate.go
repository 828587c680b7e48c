package runs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"lab/internal/claude"
	"lab/internal/conv"
)

// MaxPromptBytes bounds a first prompt; it travels on the command line.
const MaxPromptBytes = 100_000

// validate checks a start request and returns it cleaned. Every failure
// is conv.EInvalid (or conv.ETooLarge) with a message for the operator.
func validate(req conv.StartRequest, euid int) (conv.StartRequest, error) {
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
	if req.PermissionMode != "" {
		if !claude.ValidPermissionMode(req.PermissionMode) {
			return req, conv.Errorf(conv.EInvalid, "unknown permission mode %q; want one of %s", req.PermissionMode, strings.Join(claude.PermissionModes, ", "))
		}
		// The CLI refuses this mode as root and exits at once, which would
		// look like a run that died for no reason.
		if req.PermissionMode == "bypassPermissions" && euid == 0 {
			return req, conv.Errorf(conv.EInvalid, "permission mode bypassPermissions cannot be used when lab runs as root (Claude Code refuses it)")
		}
	}
	if req.Model != "" && !claude.ValidModel(req.Model) {
		return req, conv.Errorf(conv.EInvalid, "invalid model name %q", req.Model)
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
