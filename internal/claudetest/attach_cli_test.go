package claudetest

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
	"time"

	"lab/internal/agent"
	"lab/internal/claude"
	"lab/internal/clitest"
	"lab/internal/fakeclaudeapi"
)

// TestPastedImagePathsAttach pins how the real CLI takes an image: its
// path pasted into the input box becomes "[Image #n]" and reaches the
// model as an image block; the driver's clear keys empty a box holding
// an image, which then does not ride along with the next prompt.
func TestPastedImagePathsAttach(t *testing.T) {
	r := NewRig(t, fakeclaudeapi.Options{})
	pics := clitest.Uploads(t, [2]int{40, 30}, [2]int{20, 10})
	drv := claude.New().NewDriver(CLIVersion(t))
	box := func(what string, ok func(agent.PromptBox) bool) {
		t.Helper()
		r.WaitPaneFunc("x", what, 30*time.Second, func(p string) bool {
			b, shown := drv.Prompt(p)
			return shown && ok(b)
		})
	}
	r.Spawn("x")
	box("an empty input box", func(b agent.PromptBox) bool { return b.Empty() })

	// An image pasted, then cleared: nothing is left.
	r.Paste("x", pics[0])
	box("one image attached", func(b agent.PromptBox) bool { return b.Attached() == 1 })
	r.Keys("x", drv.ClearKeys()...)
	box("the box emptied", func(b agent.PromptBox) bool { return b.Empty() && b.Attached() == 0 })

	// Two images and the text, submitted.
	for i, p := range pics {
		r.Paste("x", p)
		box("the image attached", func(b agent.PromptBox) bool { return b.Attached() == i+1 })
	}
	r.Paste("x", "lab:text two pictures")
	box("the prompt composed", func(b agent.PromptBox) bool { return b.Holds("lab:text two pictures") && b.Attached() == 2 })
	r.Keys("x", "Enter")
	q := r.WaitRequest(30*time.Second, "the prompt", func(q fakeclaudeapi.Request) bool {
		return q.Kind == "messages" && len(q.Tools) > 0 && strings.Contains(q.Prompt, "two pictures")
	})
	var imgs []fakeclaudeapi.Block
	for _, m := range q.Messages {
		if m.Role == "user" && strings.Contains(m.Text(), "two pictures") {
			imgs = m.Images()
		}
	}
	if len(imgs) != 2 {
		t.Fatalf("the model received %d images with the prompt; want the two pasted (the cleared one not among them)", len(imgs))
	}
	for i, want := range [][2]int{{40, 30}, {20, 10}} {
		cfg, err := png.DecodeConfig(bytes.NewReader(imgs[i].Data))
		if err != nil || imgs[i].MediaType != "image/png" || cfg.Width != want[0] || cfg.Height != want[1] {
			t.Errorf("image %d: %s %dx%d (%v); want the %dx%d PNG", i, imgs[i].MediaType, cfg.Width, cfg.Height, err, want[0], want[1])
		}
	}
}
