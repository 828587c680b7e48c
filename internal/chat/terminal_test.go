package chat

import (
	"context"
	"slices"
	"strings"
	"testing"

	"lab/internal/conv"
)

func TestCheckTerminalInput(t *testing.T) {
	for _, c := range []struct {
		name string
		in   conv.TerminalInput
		want conv.ErrorKind // "" for accepted
	}{
		{"text and keys", conv.TerminalInput{Text: "/help", Keys: []string{"Enter"}}, ""},
		{"every key of the bar", conv.TerminalInput{Keys: conv.TerminalKeys}, ""},
		{"nothing", conv.TerminalInput{}, conv.EInvalid},
		{"a key not in the bar", conv.TerminalInput{Keys: []string{"C-u"}}, conv.EInvalid},
		{"tmux syntax as a key", conv.TerminalInput{Keys: []string{"Enter;kill-server"}}, conv.EInvalid},
		{"a newline in text", conv.TerminalInput{Text: "a\nb"}, conv.EInvalid},
		{"an escape in text", conv.TerminalInput{Text: "\x1b[A"}, conv.EInvalid},
		{"not UTF-8", conv.TerminalInput{Text: "\xff"}, conv.EInvalid},
		{"too much text", conv.TerminalInput{Text: strings.Repeat("a", MaxTerminalText+1)}, conv.ETooLarge},
		{"too many keys", conv.TerminalInput{Keys: slices.Repeat([]string{"Up"}, MaxTerminalKeys+1)}, conv.ETooLarge},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckTerminalInput(c.in)
			if c.want == "" && err != nil || c.want != "" && conv.KindOf(err) != c.want {
				t.Fatalf("got %v; want kind %q", err, c.want)
			}
		})
	}
}

// The text is typed first, then the keys pressed in order; input the
// terminal may not send reaches the pane not at all.
func TestActorTerminal(t *testing.T) {
	f := newFakeTUI(nil)
	act := NewActor(f, claudeDriver("2.1.328"), f.pending, nil, testOpts())
	ctx := context.Background()
	if err := act.Terminal(ctx, conv.TerminalInput{Text: "/help", Keys: []string{"Enter", "Escape"}}); err != nil {
		t.Fatal(err)
	}
	if err := act.Terminal(ctx, conv.TerminalInput{Text: "ok", Keys: []string{"Enter", "C-u"}}); conv.KindOf(err) != conv.EInvalid {
		t.Fatalf("a key outside the bar: got %v; want EInvalid", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if want := []string{"type:/help", "Enter", "Escape"}; !slices.Equal(f.keys, want) {
		t.Fatalf("pane got %q; want %q", f.keys, want)
	}
}
