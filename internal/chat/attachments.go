package chat

import (
	"context"
	"encoding/base64"
	"net/http"
	"os"
	"strings"

	"lab/internal/conv"
	"lab/internal/jsonscan"
)

// The images a chat shows are read back from the transcript: the fold
// keeps only where each image's data lies in the file (conv.AttachedFile
// Src and Len), so history, other devices and images pasted at the
// terminal show alike, and lab never serves a path a client names.

// attachment returns the n-th attachment (0-based) of message seq of the
// view's stream. ENotFound when there is none.
func (v *View) attachment(seq, n int) (conv.AttachedFile, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if seq < 1 || seq > v.fold.Len() {
		return conv.AttachedFile{}, conv.Errorf(conv.ENotFound, "no message %d in this chat", seq)
	}
	msgs, _ := v.fold.Messages(seq-1, seq+1, 1)
	if len(msgs) != 1 || n < 0 || n >= len(msgs[0].Attachments) {
		return conv.AttachedFile{}, conv.Errorf(conv.ENotFound, "message %d has no attachment %d", seq, n)
	}
	return msgs[0].Attachments[n], nil
}

// Image reads the bytes of image n of message seq from the transcript.
// ENotFound when the message has no such image or the data is not an
// image lab serves (PNG, JPEG, GIF, WebP).
func (v *View) Image(seq, n int) (conv.Image, error) {
	a, err := v.attachment(seq, n)
	if err != nil {
		return conv.Image{}, err
	}
	if a.Kind != conv.AttachImage || a.Len < 2 {
		return conv.Image{}, conv.Errorf(conv.ENotFound, "attachment %d of message %d is not an image lab kept", n, seq)
	}
	return readImage(v.path, a)
}

// maxImageData bounds the JSON string read for one image: well above what
// a CLI sends a model (a few MB of base64), far below a memory problem.
const maxImageData = 64 << 20

// readImage reads an image's data where the fold found it in the file at
// path: a JSON string holding base64, or a data: URL of base64.
func readImage(path string, a conv.AttachedFile) (conv.Image, error) {
	if a.Len > maxImageData {
		return conv.Image{}, conv.Errorf(conv.ENotFound, "the image is too large to serve")
	}
	f, err := os.Open(path)
	if err != nil {
		return conv.Image{}, conv.Wrap(conv.EInternal, err, "cannot read the transcript")
	}
	defer f.Close()
	raw := make([]byte, a.Len)
	if _, err := f.ReadAt(raw, a.Src); err != nil {
		return conv.Image{}, conv.Wrap(conv.EInternal, err, "cannot read the image from the transcript")
	}
	s, ok := jsonscan.String(raw)
	if !ok {
		return conv.Image{}, conv.Errorf(conv.ENotFound, "the transcript no longer holds the image where it was")
	}
	if strings.HasPrefix(s, "data:") {
		head, body, ok := strings.Cut(s, ",")
		if !ok || !strings.HasSuffix(head, ";base64") {
			return conv.Image{}, conv.Errorf(conv.ENotFound, "the image is not base64 data")
		}
		s = body
	}
	data, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return conv.Image{}, conv.Wrap(conv.ENotFound, err, "the image's data is not base64")
	}
	typ := http.DetectContentType(data)
	if !conv.ImageType(typ) {
		return conv.Image{}, conv.Errorf(conv.ENotFound, "the attachment's bytes are %s, not an image lab serves", typ)
	}
	return conv.Image{MediaType: typ, Data: data}, nil
}

// Image returns image n of message seq of a run's chat: the live view's
// for a running run, the transcript's cached fold once it ended.
func (s *Service) Image(ctx context.Context, id string, seq, n int) (conv.Image, error) {
	r, err := s.runs.Get(ctx, id)
	if err != nil {
		return conv.Image{}, err
	}
	if r.State != conv.StateEnded {
		if l := s.liveOf(id); l != nil {
			if v := l.currentView(); v != nil {
				return v.Image(seq, n)
			}
		}
	}
	path := s.transcriptOf(ctx, r)
	if path == "" {
		return conv.Image{}, conv.Errorf(conv.ENotFound, "run %s has no conversation yet", id)
	}
	return s.lib.ImageOf(r.Provider, path, seq, n)
}

// ImageOf returns image n of message seq of the transcript at path.
func (l *Library) ImageOf(provider, path string, seq, n int) (conv.Image, error) {
	v, err := l.viewOf(provider, path)
	if err != nil {
		return conv.Image{}, err
	}
	return v.Image(seq, n)
}

// currentView is the live view of the run's transcript, nil before one.
func (l *live) currentView() *View {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.view
}

// transcriptOf is the transcript of run r: recorded on the run, else the
// one its side channel names, else "".
func (s *Service) transcriptOf(ctx context.Context, r conv.Run) string {
	if r.TranscriptPath != "" {
		return r.TranscriptPath
	}
	if side, err := s.runs.Side(ctx, r.ID); err == nil {
		st, _ := side.Read()
		return st.TranscriptPath
	}
	return ""
}
