package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"lab/internal/clitest"
	"lab/internal/conv"
	"lab/internal/fakeclaudeapi"
	"lab/internal/fakecodexapi"
)

// photo5MB is a JPEG of a phone photo's size (4032×3024) whose grain
// makes it about 5 MB, as a phone's camera writes one.
func photo5MB(tb testing.TB) []byte {
	tb.Helper()
	const w, h = 4032, 3024
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range h {
		for x := range w {
			n := uint8(r.IntN(50))
			img.Set(x, y, color.RGBA{R: uint8(x*160/w) + n, G: uint8(y*160/h) + n, B: 100 + n, A: 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// BenchmarkPhotoReply measures "the operator sends a 5 MB photo with a
// reply → the model receives it as image content", through lab's API and
// the real CLIs: each iteration uploads the photo to the run, replies with
// it, and times until the scripted model's request carries the image
// (each in a fresh run, waiting at its prompt).
// It reports the median and the 95th percentile besides the mean, and the
// upload's and the reply call's own medians.
//
//	go test ./cmd/lab -run '^$' -bench PhotoReply -benchtime 10x -timeout 30m
func BenchmarkPhotoReply(b *testing.B) {
	pic := photo5MB(b)
	b.Logf("photo: %.1f MB JPEG", float64(len(pic))/(1<<20))
	for _, provider := range []string{"claude", "codex"} {
		b.Run(provider, func(b *testing.B) {
			lab := startLabModels(b)
			claudeAPI, codexAPI := lab.claudeAPI(), lab.codexAPI()
			// got reports whether the model received the prompt marked n
			// with an image.
			got := func(n int) func() bool {
				mark := fmt.Sprintf("photo %d", n)
				return func() bool {
					if provider == "claude" {
						return slices.ContainsFunc(claudeAPI.Requests(), func(q fakeclaudeapi.Request) bool {
							return strings.Contains(q.Prompt, mark) && slices.ContainsFunc(q.Messages, func(m fakeclaudeapi.Message) bool { return len(m.Images()) > 0 && strings.Contains(m.Text(), mark) })
						})
					}
					return slices.ContainsFunc(codexAPI.Requests(), func(q fakecodexapi.Request) bool {
						return slices.ContainsFunc(q.Items, func(it fakecodexapi.Item) bool { return len(it.Images) > 0 && strings.Contains(it.Text, mark) })
					})
				}
			}
			var total, up, reply []time.Duration
			b.ResetTimer()
			for i := range b.N {
				// A fresh run each time, waiting at its prompt: every
				// request then carries this one photo, not the ones
				// before it too.
				b.StopTimer()
				var run conv.Run
				if code := lab.call("POST", "/api/v1/runs", conv.StartRequest{Provider: provider, Cwd: b.TempDir(), Prompt: "lab:text ready"}, &run); code != 201 {
					b.Fatalf("start: %d", code)
				}
				lab.waitPage(run.ID, "the first turn's end", func(p conv.Page) bool { return p.State == conv.StateNeedsInput })
				b.StartTimer()
				start := time.Now()
				u, _ := lab.upload(run.ID, "IMG_4032.jpg", "image/jpeg", pic, http.StatusCreated)
				uploaded := time.Now()
				lab.replyWith(run.ID, fmt.Sprintf("lab:text photo %d", i), u.ID)
				replied := time.Now()
				clitest.Poll(b, 2*time.Minute, "the model to receive the photo", got(i))
				total = append(total, time.Since(start))
				up = append(up, uploaded.Sub(start))
				reply = append(reply, replied.Sub(uploaded))
				b.StopTimer()
				lab.call("POST", "/api/v1/runs/"+run.ID+"/stop", nil, nil)
				b.StartTimer()
			}
			b.StopTimer()
			b.ReportMetric(ms(quantile(total, 0.5)), "p50-ms")
			b.ReportMetric(ms(quantile(total, 0.95)), "p95-ms")
			b.ReportMetric(ms(quantile(up, 0.5)), "upload-p50-ms")
			b.ReportMetric(ms(quantile(reply, 0.5)), "reply-p50-ms")
		})
	}
}
