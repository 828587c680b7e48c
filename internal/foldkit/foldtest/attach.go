package foldtest

import (
	"testing"

	"lab/internal/conv"
)

// WantAttachment is what a test expects of a message's attachment: its
// kind, media type and name, and for an image the raw JSON value (a
// quoted string) found where the fold located its data in the file.
type WantAttachment struct {
	Kind, MediaType, Name, Data string
}

// CheckAttachments compares a message's attachments with want, reading
// each image's data in the file's bytes where the fold says it lies.
func CheckAttachments(t testing.TB, data string, got []conv.AttachedFile, want []WantAttachment) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d attachments %+v; want %d", len(got), got, len(want))
	}
	for i, w := range want {
		a := got[i]
		if a.Kind != w.Kind || a.MediaType != w.MediaType || a.Name != w.Name {
			t.Errorf("attachment %d = %+v; want %s %s %q", i, a, w.Kind, w.MediaType, w.Name)
		}
		if w.Data == "" {
			continue
		}
		if end := a.Src + int64(a.Len); a.Src < 0 || end > int64(len(data)) || data[a.Src:end] != w.Data {
			t.Errorf("attachment %d located at %d+%d; want its data %s there", i, a.Src, a.Len, w.Data)
		}
	}
}
