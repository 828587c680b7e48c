package codextest

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
	"time"

	"lab/internal/agent"
	"lab/internal/clitest"
	"lab/internal/codex"
	"lab/internal/fakecodexapi"
)

// TestPastedImagePathsAttach pins how the real CLI takes an image: --image
// at start, and mid-session its path pasted into the input box, shown as
// "[Image #n]", both reaching the model as input_image content; the
// driver's clear keys empty a box holding an image, which then does not
// ride along with the next prompt.
func TestPastedImagePathsAttach(t *testing.T) {
	r := NewRig(t, fakecodexapi.Options{})
	pics := clitest.Uploads(t, [2]int{40, 30}, [2]int{20, 10}, [2]int{8, 8})
	images := func(q fakecodexapi.Request) []fakecodexapi.Image {
		for i := len(q.Items) - 1; i >= 0; i-- {
			if it := q.Items[i]; it.Type == "message" && it.Role == "user" {
				return it.Images
			}
		}
		return nil
	}
	drv := codex.New("").NewDriver("0.171.0")
	box := func(what string, ok func(agent.PromptBox) bool) {
		t.Helper()
		r.WaitPaneFunc("x", what, 60*time.Second, func(p string) bool {
			b, shown := drv.Prompt(p)
			return shown && ok(b)
		})
	}

	// At start: --image.
	r.Spawn("x", codex.SpawnOptions{Prompt: "lab:text the first picture", Images: pics[2:]})
	q := r.WaitRequest(60*time.Second, "the first prompt", func(q fakecodexapi.Request) bool {
		return q.Kind == fakecodexapi.KindResponses && strings.Contains(q.Prompt, "the first picture")
	})
	if imgs := images(q); len(imgs) != 1 || imgs[0].MediaType != "image/png" {
		t.Fatalf("the first prompt carried %+v; want the --image PNG", imgs)
	}
	r.WaitPane("x", "You said", 60*time.Second)
	box("an empty input box", func(b agent.PromptBox) bool { return b.Empty() })

	// Mid-session: a pasted image cleared leaves nothing.
	r.Paste("x", pics[0])
	box("one image attached", func(b agent.PromptBox) bool { return b.Attached() == 1 })
	r.Keys("x", drv.ClearKeys()...)
	box("the box emptied", func(b agent.PromptBox) bool { return b.Empty() && b.Attached() == 0 })

	for i, p := range pics[:2] {
		r.Paste("x", p)
		box("the image attached", func(b agent.PromptBox) bool { return b.Attached() == i+1 })
	}
	r.Paste("x", "lab:text two pictures")
	box("the prompt composed", func(b agent.PromptBox) bool { return b.Holds("lab:text two pictures") && b.Attached() == 2 })
	r.Keys("x", "Enter")
	q = r.WaitRequest(60*time.Second, "the prompt", func(q fakecodexapi.Request) bool {
		return q.Kind == fakecodexapi.KindResponses && strings.Contains(q.Prompt, "two pictures")
	})
	imgs := images(q)
	if len(imgs) != 2 {
		t.Fatalf("the model received %d images; want the two pasted (the cleared one not among them)", len(imgs))
	}
	for i, want := range [][2]int{{40, 30}, {20, 10}} {
		cfg, err := png.DecodeConfig(bytes.NewReader(imgs[i].Data))
		if err != nil || cfg.Width != want[0] || cfg.Height != want[1] {
			t.Errorf("image %d: %dx%d (%v); want %dx%d", i, cfg.Width, cfg.Height, err, want[0], want[1])
		}
	}
}

// TestImagesInPlanMode: a run started in Plan mode types its first prompt
// after the mode switch (no start flag takes the images then), so its
// images are attached by pasting their paths there too, and reach the
// model with the Plan mode instructions.
func TestImagesInPlanMode(t *testing.T) {
	r := NewRig(t, fakecodexapi.Options{})
	pic := clitest.Uploads(t, [2]int{12, 9})[0]
	drv := codex.New("").NewDriver("0.171.0")
	r.Spawn("p", codex.SpawnOptions{})
	r.WaitPaneFunc("p", "an empty input box", 60*time.Second, func(p string) bool {
		b, ok := drv.Prompt(p)
		return ok && b.Empty()
	})
	EnterPlanMode(t, r, "p")
	r.Play("p", agent.PromptSteps(drv.Prompt, []string{pic}, "lab:text plan around this picture"), 60*time.Second)
	q := r.WaitRequest(60*time.Second, "the planned prompt", func(q fakecodexapi.Request) bool {
		return q.Kind == fakecodexapi.KindResponses && strings.Contains(q.Prompt, "plan around this picture")
	})
	var imgs []fakecodexapi.Image
	for _, it := range q.Items {
		if it.Type == "message" && it.Role == "user" && strings.Contains(it.Text, "plan around this picture") {
			imgs = it.Images
		}
	}
	if !q.PlanMode || len(imgs) != 1 || imgs[0].MediaType != "image/png" {
		t.Fatalf("plan mode %v, images %+v; want the prompt in Plan mode with its PNG", q.PlanMode, imgs)
	}
}
