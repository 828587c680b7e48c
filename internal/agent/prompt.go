package agent

import "fmt"

// Typing a prompt, with attachments, into a CLI's input box is the same
// for every CLI lab drives: images are attached by pasting their paths
// (each CLI turns a pasted image path into an attachment it sends as
// image content, shown in the box as a placeholder), then the text is
// pasted, and each step is checked on the box before the next. The checks
// read the box through the CLI's own PromptReader (Driver.Prompt), so
// what differs per CLI stays in its adapter.

// PromptReader reads a CLI's input box off a pane capture: false when the
// pane shows none (Driver.Prompt).
type PromptReader func(capture string) (PromptBox, bool)

// ComposeSteps returns the steps that attach images (paths to paste) and
// then paste text into an empty input box, each checked on the box: when
// they are played, the box holds exactly the prompt, ready for Enter.
func ComposeSteps(read PromptReader, images []string, text string) []Step {
	steps := []Step{{Kind: StepExpect, Check: BoxEmpty{read}}}
	for i, path := range images {
		steps = append(steps,
			Step{Kind: StepPaste, Text: path, Acts: true},
			Step{Kind: StepExpect, Check: BoxAttached{read, i + 1}},
		)
	}
	if text != "" {
		steps = append(steps,
			Step{Kind: StepPaste, Text: text, Acts: true},
			Step{Kind: StepExpect, Check: BoxHolds{read, text, len(images)}},
		)
	}
	return steps
}

// PromptSteps is ComposeSteps followed by the Enter that submits the
// prompt (sent again while the box still holds it).
func PromptSteps(read PromptReader, images []string, text string) []Step {
	return append(ComposeSteps(read, images, text),
		Step{Kind: StepKey, Key: "Enter", Acts: true, Commit: true, Until: BoxSubmitted{read, text, len(images)}})
}

// BoxEmpty passes when the input box shows and holds nothing.
type BoxEmpty struct{ Read PromptReader }

func (c BoxEmpty) Match(capture string) (string, error) {
	b, ok := c.Read(capture)
	if !ok {
		return "", fmt.Errorf("no input box on the pane")
	}
	if !b.Empty() {
		return "prompt", fmt.Errorf("the input box holds %q", b.Shown())
	}
	return "prompt", nil
}

func (BoxEmpty) What() string { return "an empty input box" }

// BoxAttached passes when the box shows N attachments (a CLI that does
// not take a pasted path as an image leaves it typed instead).
type BoxAttached struct {
	Read PromptReader
	N    int
}

func (c BoxAttached) Match(capture string) (string, error) {
	b, ok := c.Read(capture)
	if !ok {
		return "", fmt.Errorf("no input box on the pane")
	}
	if n := b.Attached(); n != c.N {
		return "prompt", fmt.Errorf("the input box shows %d attachments, not %d (it shows %q)", n, c.N, b.Shown())
	}
	return "prompt", nil
}

func (c BoxAttached) What() string { return fmt.Sprintf("%d attachments in the input box", c.N) }

// BoxHolds passes when the box holds exactly Text, with N attachments.
type BoxHolds struct {
	Read PromptReader
	Text string
	N    int
}

func (c BoxHolds) Match(capture string) (string, error) {
	b, ok := c.Read(capture)
	if !ok {
		return "", fmt.Errorf("no input box on the pane")
	}
	if !b.Holds(c.Text) || b.Attached() != c.N {
		return "prompt", fmt.Errorf("the input box shows %q", b.Shown())
	}
	return "prompt", nil
}

func (BoxHolds) What() string { return "the input box holding the prompt" }

// BoxSubmitted passes once the box no longer holds the prompt: neither
// its text nor its attachments (an empty prompt of images only is gone
// when its attachments are).
type BoxSubmitted struct {
	Read PromptReader
	Text string
	N    int
}

func (c BoxSubmitted) Match(capture string) (string, error) {
	b, ok := c.Read(capture)
	if !ok {
		return "prompt", nil // a screen over the box: the prompt was taken
	}
	if c.Text != "" && b.Holds(c.Text) || c.Text == "" && c.N > 0 && b.Attached() == c.N {
		return "prompt", fmt.Errorf("the input box still holds the prompt")
	}
	return "prompt", nil
}

func (BoxSubmitted) What() string { return "the prompt submitted" }
