package codex

import (
	"strings"
	"testing"

	"lab/internal/conv"
	"lab/internal/foldkit/foldtest"
)

// fxImagePrompt is a prompt with images as 0.171.0 writes one: per image
// an opening tag naming it and its path, the image as a data URL, a
// closing tag; then the text.
func fxImagePrompt(t testing.TB, text string, images ...[2]string) string {
	var content []any
	var meta []any
	for i, im := range images {
		content = append(content,
			fxObj{"type": "input_text", "text": `<image name=[Image #` + string(rune('1'+i)) + `] path="` + im[0] + `">`},
			fxObj{"type": "input_image", "image_url": im[1], "detail": "original"},
			fxObj{"type": "input_text", "text": "</image>"})
	}
	content = append(content, fxObj{"type": "input_text", "text": text})
	for range content {
		meta = append(meta, fxObj{"provenance": fxObj{"type": "user"}})
	}
	return fxLine(t, "response_item", fxObj{"type": "message", "role": "user", "content": content,
		"internal_chat_message_metadata_passthrough": fxObj{"content_item_metadata": meta}})
}

// TestFoldImagesAndFiles: a prompt with images shows as its text (the
// tags and placeholders gone) with the images, named after their files
// and located in the rollout, and the files lab handed over by path.
func TestFoldImagesAndFiles(t *testing.T) {
	lines := []string{
		fxImagePrompt(t, "[Image #1] [Image #2] what is in these?\n\n[Attached file: /s/runs/r1/uploads/0123456789abcdef-notes.txt]",
			[2]string{"/s/runs/r1/uploads/fedcba9876543210-shot.png", "data:image/png;base64,iVBORw0KGgo="},
			[2]string{"/tmp/photo.jpg", "data:image/jpeg;base64,/9j/4AAQ"}),
		fxImagePrompt(t, "first prompt with --image", [2]string{"/s/u/0123456789abcdef-a.webp", "data:image/webp;base64,UklGRg=="}),
	}
	data := strings.Join(lines, "")
	f := foldOf(t, lines...)
	msgs := messages(f)
	if len(msgs) != 2 {
		t.Fatalf("%d messages; want 2: %+v", len(msgs), msgs)
	}
	m := msgs[0]
	if m.Text != "what is in these?" {
		t.Fatalf("message text %q; want the text alone", m.Text)
	}
	foldtest.CheckAttachments(t, data, m.Attachments, []foldtest.WantAttachment{
		{Kind: conv.AttachImage, MediaType: "image/png", Name: "shot.png", Data: `"data:image/png;base64,iVBORw0KGgo="`},
		{Kind: conv.AttachImage, MediaType: "image/jpeg", Name: "photo.jpg", Data: `"data:image/jpeg;base64,/9j/4AAQ"`},
		{Kind: conv.AttachFile, Name: "notes.txt"},
	})
	if m := msgs[1]; m.Text != "first prompt with --image" || len(m.Attachments) != 1 || m.Attachments[0].Name != "a.webp" {
		t.Errorf("the first prompt = %+v; want its text and a.webp", m)
	}
}

// TestFoldUsage: the meter reads the token counts (the session's totals,
// the last request's input as the context in use, the window the CLI
// reckons) and the model from the turn context.
func TestFoldUsage(t *testing.T) {
	count := func(totalIn, cached, out, lastIn int) string {
		return fxEvent(t, "token_count", fxObj{"info": fxObj{
			"total_token_usage":    fxObj{"input_tokens": totalIn, "cached_input_tokens": cached, "cache_write_input_tokens": 0, "output_tokens": out, "total_tokens": totalIn + out},
			"last_token_usage":     fxObj{"input_tokens": lastIn, "cached_input_tokens": 0, "output_tokens": 7},
			"model_context_window": 258400}})
	}
	f := foldOf(t,
		fxLine(t, "turn_context", fxObj{"turn_id": "t1", "cwd": "/w", "model": "gpt-5.5", "approval_policy": "on-request"}),
		fxEvent(t, "task_started", fxObj{"model_context_window": 258400, "collaboration_mode_kind": "default"}),
		fxUser(t, "go", nil),
		fxEvent(t, "token_count", fxObj{"info": nil}), // a rate-limit update: no usage
	)
	if f.Usage() != nil {
		t.Fatalf("usage %+v before any count", f.Usage())
	}
	f.Write([]byte(count(100, 0, 17, 100) + count(220_100, 20_000, 54, 220_000)))
	u := f.Usage()
	want := conv.Usage{Model: "gpt-5.5", ContextTokens: 220_000, ContextWindow: 258400, InputTokens: 200_100, CacheReadTokens: 20_000, OutputTokens: 54,
		Requests: 2, PriceDate: Prices.Date, Estimate: true}
	want.CostUSD = modelPrices["gpt-5.5"].Cost(&want)
	if *u != want {
		t.Fatalf("usage %+v;\nwant  %+v", *u, want)
	}
	if full := u.Full(); full < 0.85 || full > 0.852 {
		t.Errorf("full %v; want 85%%", full)
	}
}
