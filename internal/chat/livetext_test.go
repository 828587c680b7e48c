package chat

import (
	"testing"
	"time"

	"lab/internal/conv"
)

func TestPartialsInAWindow(t *testing.T) {
	all := []conv.Partial{{AfterSeq: 0, Text: "a"}, {AfterSeq: 4, Text: "b"}, {AfterSeq: 9, Text: "c"}}
	page := func(first, last int) conv.Page {
		p := conv.Page{FirstSeq: first, LastSeq: last}
		for s := first; s <= last && first > 0; s++ {
			p.Messages = append(p.Messages, conv.Message{Seq: s})
		}
		return p
	}
	texts := func(ps []conv.Partial) (s string) {
		for _, p := range ps {
			s += p.Text
		}
		return s
	}
	for _, tc := range []struct {
		name string
		q    conv.Query
		p    conv.Page
		want string
	}{
		{"the latest window from the start", conv.Query{}, page(1, 9), "abc"},
		{"the latest window of a long chat", conv.Query{}, page(5, 9), "bc"},
		{"read after a cursor", conv.Query{After: 6}, page(7, 9), "c"},
		{"after the cursor, nothing new yet", conv.Query{After: 9}, page(0, 0), "c"},
		{"an older window read backwards", conv.Query{Before: 5}, page(1, 4), "ab"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := texts(partialsIn(all, tc.q, tc.p)); got != tc.want {
				t.Fatalf("got %q; want %q", got, tc.want)
			}
		})
	}
}

// The live text is not served beside the agent's message that replaces it.
func TestLiveTextGivesWayToItsMessage(t *testing.T) {
	lt := &conv.LiveText{Text: "Streaming", Since: time.Now(), AfterSeq: 3}
	p := conv.Page{Messages: []conv.Message{{Seq: 3, Kind: conv.KindText, Role: conv.RoleUser}, {Seq: 4, Kind: conv.KindTool}}}
	if got := liveFor(lt, p); got == nil || *got != *lt {
		t.Fatalf("before the message: %+v; want the live text", got)
	}
	p.Messages = append(p.Messages, conv.Message{Seq: 5, Kind: conv.KindText, Role: conv.RoleAssistant, Text: "Streaming slowly"})
	if got := liveFor(lt, p); got != nil {
		t.Fatalf("with the message: %+v; want none", got)
	}
}
