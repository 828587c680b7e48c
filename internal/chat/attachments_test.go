package chat

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"testing"

	"lab/internal/agent"
	"lab/internal/codex"
	"lab/internal/conv"
)

func codexFold() agent.Fold { return codex.NewFold() }

func testPNG(t testing.TB) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 5, 4))
	img.Set(1, 1, color.RGBA{G: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestViewServesImagesFromTheTranscript: an image a prompt carried is read
// back from the transcript where the fold found it, for both CLIs' line
// shapes; anything else asked for is not found.
func TestViewServesImagesFromTheTranscript(t *testing.T) {
	pic := testPNG(t)
	b64 := base64.StdEncoding.EncodeToString(pic)
	cases := []struct {
		name  string
		fold  func() agent.Fold
		lines []string
	}{
		{"claude", claudeFold, []string{
			lineUser("hello"),
			mustJSON(map[string]any{"type": "user", "sessionId": "s1", "timestamp": "2026-11-30T10:00:00Z", "message": map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": "[Image #1] look"},
				map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": "image/png", "data": b64}},
			}}}),
		}},
		{"codex", codexFold, []string{
			mustJSON(map[string]any{"timestamp": "2026-12-01T10:00:00Z", "type": "response_item", "payload": map[string]any{"type": "message", "role": "user",
				"content": []any{map[string]any{"type": "input_text", "text": "hello"}}}}),
			mustJSON(map[string]any{"timestamp": "2026-12-01T10:00:01Z", "type": "response_item", "payload": map[string]any{"type": "message", "role": "user", "content": []any{
				map[string]any{"type": "input_text", "text": `<image name=[Image #1] path="/u/shot.png">`},
				map[string]any{"type": "input_image", "image_url": "data:image/png;base64," + b64},
				map[string]any{"type": "input_text", "text": "</image>"},
				map[string]any{"type": "input_text", "text": "[Image #1] look"},
			}}}),
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s1.jsonl")
			appendLines(t, path, c.lines...)
			v := NewView(path, c.fold, nil)
			if _, err := v.Sync(); err != nil {
				t.Fatal(err)
			}
			p := v.Page(conv.Query{})
			if len(p.Messages) != 2 || p.Messages[1].Text != "look" || len(p.Messages[1].Attachments) != 1 {
				t.Fatalf("messages %+v; want the prompt \"look\" with one image", p.Messages)
			}
			img, err := v.Image(2, 0)
			if err != nil || img.MediaType != "image/png" || !bytes.Equal(img.Data, pic) {
				t.Fatalf("Image(2, 0) = %s %d bytes, %v; want the PNG's %d bytes", img.MediaType, len(img.Data), err, len(pic))
			}
			for _, at := range [][2]int{{1, 0}, {2, 1}, {3, 0}, {0, 0}, {2, -1}} {
				if _, err := v.Image(at[0], at[1]); conv.KindOf(err) != conv.ENotFound {
					t.Errorf("Image(%d, %d) = %v; want not found", at[0], at[1], err)
				}
			}
		})
	}
}
