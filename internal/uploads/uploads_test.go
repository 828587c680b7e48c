package uploads

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lab/internal/conv"
)

func pngBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, x%h, color.RGBA{R: 200, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegBytes(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 8)), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// files lists what dir holds, names only.
func files(t testing.TB, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestPutStoresPrivatelyUnderLabsName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run", Dir)
	s := &Store{}
	cases := []struct {
		name, declared string
		body           []byte
		wantType       string
		wantName       string
	}{
		{"Screen Shot 2026-12-01 at 10.02.png", "image/png", pngBytes(t, 4, 3), "image/png", "Screen-Shot-2026-12-01-at-10.02.png"},
		{"IMG_0001.HEIC.jpeg", "image/jpeg", jpegBytes(t), "image/jpeg", "IMG_0001.HEIC.jpg"},
		{"photo", "", jpegBytes(t), "image/jpeg", "photo.jpg"}, // the bytes name the extension
		{"notes.png.txt", "text/plain", []byte("hello\n"), "text/plain", "notes.png.txt"},
		{"../../etc/passwd", "", []byte("root:x:0:0\n"), "text/plain", "passwd.txt"},
		{"main.py", "text/x-python", []byte("print(1)\n"), "text/plain", "main.py"},
		{".bashrc", "", []byte("export A=1\n"), "text/plain", "bashrc.txt"},
		{"", "", []byte{0, 1, 2, 3}, "application/octet-stream", "upload.bin"},
		{"résumé final!!.pdf", "application/pdf", []byte("%PDF-1.7\n%\xe2\xe3\n"), "application/pdf", "r-sum-final.pdf"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, err := s.Put(dir, c.name, c.declared, bytes.NewReader(c.body))
			if err != nil {
				t.Fatalf("Put: %v", err)
			}
			if u.MediaType != c.wantType || u.Name != c.wantName || u.Size != int64(len(c.body)) {
				t.Fatalf("got %+v; want type %s, name %s, size %d", u, c.wantType, c.wantName, len(c.body))
			}
			if !ValidID(u.ID) || filepath.Base(u.Path) != u.ID+"-"+u.Name || filepath.Dir(u.Path) != dir {
				t.Fatalf("stored at %s with id %s; want %s/<id>-%s", u.Path, u.ID, dir, u.Name)
			}
			info, err := os.Stat(u.Path)
			if err != nil || info.Mode().Perm() != 0o600 {
				t.Fatalf("stat %s: %v, mode %v; want 0600", u.Path, err, info.Mode())
			}
			got, err := os.ReadFile(u.Path)
			if err != nil || !bytes.Equal(got, c.body) {
				t.Fatalf("content differs (%v)", err)
			}
			again, err := s.Get(dir, u.ID)
			if err != nil || again != u {
				t.Fatalf("Get = %+v, %v; want %+v", again, err, u)
			}
		})
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("uploads folder mode %v (%v); want 0700", info.Mode(), err)
	}
}

func TestPutRefusesAndKeepsNothing(t *testing.T) {
	cases := []struct {
		name, declared string
		body           []byte
		kind           conv.ErrorKind
		msg            string
	}{
		{"big.png", "image/png", bytes.Repeat([]byte("x"), 1025), conv.ETooLarge, "larger than 1 KiB"},
		{"exactly-over.txt", "", bytes.Repeat([]byte("a"), 1025), conv.ETooLarge, "larger than 1 KiB"},
		{"shot.png", "image/png", []byte("not an image at all"), conv.EInvalid, `"shot.png" is declared image/png, but its bytes are text/plain`},
		{"shot.png", "", []byte("not an image at all"), conv.EInvalid, "declared an image (by its name)"},
		{"x.bin", "image/jpeg", []byte{0, 0, 0, 1}, conv.EInvalid, "declared image/jpeg"},
		{"fake.png", "image/png", append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, 40)...), conv.EInvalid, "not a readable image"},
		{"empty.txt", "", nil, conv.EInvalid, "is empty"},
	}
	for _, c := range cases {
		t.Run(c.name+c.declared, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), Dir)
			s := &Store{Max: 1024}
			_, err := s.Put(dir, c.name, c.declared, bytes.NewReader(c.body))
			if conv.KindOf(err) != c.kind || !strings.Contains(conv.MessageOf(err), c.msg) {
				t.Fatalf("got %v (%s); want %s saying %q", err, conv.KindOf(err), c.kind, c.msg)
			}
			if f := files(t, dir); len(f) != 0 {
				t.Fatalf("the folder holds %v after a refused upload; want nothing", f)
			}
		})
	}
}

func TestSniffKnowsPhoneFormats(t *testing.T) {
	heic := append([]byte{0, 0, 0, 24}, []byte("ftypheic\x00\x00\x00\x00mif1heic")...)
	cases := map[string][]byte{
		"image/heic":      heic,
		"image/avif":      append([]byte{0, 0, 0, 28}, []byte("ftypavif\x00\x00\x00\x00")...),
		"image/png":       pngBytes(t, 2, 2),
		"image/jpeg":      jpegBytes(t),
		"image/webp":      []byte("RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00"),
		"text/plain":      []byte("hello"),
		"application/pdf": []byte("%PDF-1.4"),
	}
	for want, head := range cases {
		if got := Sniff(head); got != want {
			t.Errorf("Sniff(%q) = %s; want %s", head[:min(12, len(head))], got, want)
		}
	}
}

func TestGetRefusesWhatIsNotAnUpload(t *testing.T) {
	dir := t.TempDir()
	s := &Store{}
	for _, id := range []string{"../../etc/passwd", "ABCDEF0123456789", "0123", "*"} {
		if _, err := s.Get(dir, id); conv.KindOf(err) != conv.EInvalid {
			t.Errorf("Get(%q) = %v; want invalid", id, err)
		}
	}
	if _, err := s.Get(dir, "0123456789abcdef"); conv.KindOf(err) != conv.ENotFound {
		t.Errorf("Get of a missing upload = %v; want not found", err)
	}
}

func TestClaimMovesStagedUploadsToTheRun(t *testing.T) {
	base := t.TempDir()
	s := &Store{Staging: filepath.Join(base, "staging")}
	a, err := s.Stage("a.txt", "", strings.NewReader("alpha"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Stage("b.png", "image/png", bytes.NewReader(pngBytes(t, 3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(base, "run", Dir)
	// An unknown or repeated id moves nothing.
	for _, ids := range [][]string{{a.ID, "0123456789abcdef"}, {a.ID, a.ID}} {
		if _, err := s.Claim(ids, runDir); conv.KindOf(err) != conv.EInvalid {
			t.Fatalf("Claim(%v) = %v; want invalid", ids, err)
		}
		if len(files(t, s.Staging)) != 2 || len(files(t, runDir)) != 0 {
			t.Fatalf("a refused claim moved files: staging %v, run %v", files(t, s.Staging), files(t, runDir))
		}
	}
	got, err := s.Claim([]string{b.ID, a.ID}, runDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != b.ID || got[1].ID != a.ID || filepath.Dir(got[0].Path) != runDir || !got[0].Image() || got[1].Image() {
		t.Fatalf("claimed %+v; want b (an image) then a, in %s", got, runDir)
	}
	if len(files(t, s.Staging)) != 0 {
		t.Fatalf("staging still holds %v", files(t, s.Staging))
	}
	// Claimed once, gone from staging.
	if _, err := s.Claim([]string{a.ID}, runDir); conv.KindOf(err) != conv.EInvalid {
		t.Fatalf("a second claim = %v; want invalid", err)
	}
	// A start that failed after the claim gives them back: a retry
	// claims them again, their bytes whole.
	s.Return(got)
	if len(files(t, runDir)) != 0 {
		t.Fatalf("returned uploads still in the run: %v", files(t, runDir))
	}
	again, err := s.Claim([]string{a.ID, b.ID}, filepath.Join(base, "retry", Dir))
	if err != nil {
		t.Fatalf("claim after return: %v", err)
	}
	if data, err := os.ReadFile(again[0].Path); err != nil || string(data) != "alpha" {
		t.Fatalf("returned upload reads %q, %v; want alpha", data, err)
	}
}

func TestStageDropsOldStagedUploads(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	s := &Store{Staging: t.TempDir(), Now: func() time.Time { return now }}
	old, err := s.Stage("old.txt", "", strings.NewReader("old"))
	if err != nil {
		t.Fatal(err)
	}
	past := now.Add(-StagingTTL - time.Minute)
	if err := os.Chtimes(old.Path, past, past); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Stage("new.txt", "", strings.NewReader("new")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old.Path); !os.IsNotExist(err) {
		t.Fatalf("the day-old staged upload is still there (%v)", err)
	}
	if n := len(files(t, s.Staging)); n != 1 {
		t.Fatalf("staging holds %d files; want the new one", n)
	}
}

func TestFileNameBounds(t *testing.T) {
	long := strings.Repeat("a", 200) + ".txt"
	if got := FileName(long, "text/plain"); len(got) > nameMax || !strings.HasSuffix(got, ".txt") {
		t.Fatalf("FileName(long) = %q (%d bytes); want at most %d, ending .txt", got, len(got), nameMax)
	}
	if got := FileName("evil.png", "text/plain"); got != "evil.txt" {
		t.Fatalf("a text file named .png = %q; want the image extension dropped", got)
	}
}
