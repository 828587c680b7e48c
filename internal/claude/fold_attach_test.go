package claude

import (
	"encoding/json"
	"strings"
	"testing"

	"lab/internal/conv"
	"lab/internal/foldkit/foldtest"
)

// fxImage is an image block as 2.1.332 writes a pasted image.
func fxImage(mediaType, data string) fxObj {
	return fxObj{"type": "image", "source": fxObj{"type": "base64", "media_type": mediaType, "data": data}}
}

// TestFoldImagesAndFiles: a prompt with pasted images (the CLI's
// "[Image #n]" placeholders in its text, an image block each) and a file
// lab handed over by path shows as its text with the images and the file
// as attachments, each image located in the file where its data lies.
func TestFoldImagesAndFiles(t *testing.T) {
	text := "[Image #1] [Image #2]what is in these?\n\n[Attached file: /s/runs/r1/uploads/0123456789abcdef-notes.txt]"
	lines := []string{
		fxUser(t, "warm up", nil),
		fxUser(t, []fxObj{fxText(text), fxImage("image/png", "iVBORw0KGgo="), fxImage("image/jpeg", "/9j/4AAQ")}, fxObj{"imagePasteIds": []int{1, 2}}),
		// The CLI's companion line naming the sources is meta: not chat.
		fxUser(t, []fxObj{fxText("[Image: source: /s/runs/r1/uploads/x.png]")}, fxObj{"isMeta": true}),
		fxUser(t, []fxObj{fxImage("image/png", "AAAA")}, nil), // an image alone
	}
	data := strings.Join(lines, "")
	f := fxFold(lines...)
	msgs, _ := f.Messages(0, 0, 0)
	if len(msgs) != 3 {
		t.Fatalf("%d messages; want 3: %+v", len(msgs), msgs)
	}
	m := msgs[1]
	if m.Text != "what is in these?" {
		t.Fatalf("message text %q; want it without placeholders or file lines", m.Text)
	}
	foldtest.CheckAttachments(t, data, m.Attachments, []foldtest.WantAttachment{
		{Kind: conv.AttachImage, MediaType: "image/png", Data: `"iVBORw0KGgo="`},
		{Kind: conv.AttachImage, MediaType: "image/jpeg", Data: `"/9j/4AAQ"`},
		{Kind: conv.AttachFile, Name: "notes.txt"},
	})
	if alone := msgs[2]; alone.Text != "" || len(alone.Attachments) != 1 || alone.Role != conv.RoleUser {
		t.Errorf("an image without text = %+v; want a user message with the image", alone)
	}
	// The attachments show in the JSON a client gets, their place in the
	// file does not.
	b, _ := json.Marshal(m)
	if !strings.Contains(string(b), `"attachments":[{"kind":"image","media_type":"image/png"}`) || strings.Contains(string(b), "Src") {
		t.Errorf("wire form %s", b)
	}
	// The same bytes in any split locate the images alike.
	for cut := 1; cut < len(data); cut += 37 {
		g := NewFold()
		g.Write([]byte(data[:cut]))
		g.Write([]byte(data[cut:]))
		gm, _ := g.Messages(0, 0, 0)
		if gm[1].Attachments[1] != m.Attachments[1] {
			t.Fatalf("split at %d: %+v; want %+v", cut, gm[1].Attachments[1], m.Attachments[1])
		}
	}
}

// fxUsageLine is an assistant line of reply id with usage, as 2.1.332
// writes one per content block.
func fxUsageLine(t *testing.T, id, model string, in, cw, cr, out int) string {
	return fxLine(t, fxObj{"parentUuid": nil, "isSidechain": false, "type": "assistant", "uuid": "a", "timestamp": "2026-12-01T10:00:01.000Z",
		"message": fxObj{"id": id, "model": model, "role": "assistant", "type": "message", "stop_reason": nil,
			"content": []fxObj{fxText("part of " + id)},
			"usage":   fxObj{"input_tokens": in, "cache_creation_input_tokens": cw, "cache_read_input_tokens": cr, "output_tokens": out}}})
}

// TestFoldUsage: the context in use is the last request's input with its
// cache reads and writes; each request counts once however many lines its
// reply took; lines the CLI writes itself and subagents' lines count
// nothing; the model's window and prices come from the table.
func TestFoldUsage(t *testing.T) {
	f := fxFold(fxUser(t, "go", nil))
	if f.Usage() != nil {
		t.Fatal("usage before any reply")
	}
	f.Write([]byte(fxUsageLine(t, "msg_a", "claude-opus-5-5", 100, 2000, 0, 10) +
		fxUsageLine(t, "msg_a", "claude-opus-5-5", 100, 2000, 0, 25) +
		fxUsageLine(t, "msg_b", "claude-opus-5-5", 50, 300, 2000, 40) +
		fxUsageLine(t, "msg_c", syntheticModel, 0, 0, 0, 0)))
	sub := fxUsageLine(t, "msg_s", "claude-opus-5-5", 99999, 0, 0, 99999)
	f.Write([]byte(strings.Replace(sub, `"isSidechain":false`, `"isSidechain":true`, 1)))
	u := f.Usage()
	price := tier4x20cr020
	want := conv.Usage{Model: "claude-opus-5-5", ContextTokens: 50 + 300 + 2000, ContextWindow: 1_000_000,
		InputTokens: 150, OutputTokens: 65, CacheWriteTokens: 2300, CacheReadTokens: 2000, Requests: 2,
		PriceDate: Prices.Date, Estimate: true}
	want.CostUSD = price.Cost(&want)
	if *u != want {
		t.Fatalf("usage %+v;\nwant  %+v", *u, want)
	}
}

func TestLookupPrice(t *testing.T) {
	for _, c := range []struct {
		model  string
		window int64
		ok     bool
	}{
		{"claude-opus-5-5", window1m, true},
		{"claude-haiku-4-5-20251001", window200k, true},
		{"us.anthropic.claude-haiku-4-5-20251001-v1:0", window200k, true},
		{"claude-sonnet-4-5@20250929", window200k, true},
		{"claude-sonnet-4-5[1m]", window1m, true},
		{"claude-scripted", 0, false},
	} {
		w, _, ok := lookupPrice(c.model)
		if w != c.window || ok != c.ok {
			t.Errorf("lookupPrice(%q) = %d, %v; want %d, %v", c.model, w, ok, c.window, c.ok)
		}
	}
}
