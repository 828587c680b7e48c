package uploads

import (
	"image"
	_ "image/gif" // DecodeConfig checks what the sniffer calls a GIF
	_ "image/jpeg"
	_ "image/png"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"lab/internal/conv"
)

// headLen is how much of a file the sniffer reads (as
// http.DetectContentType does).
const headLen = 512

func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, headLen)
	n, err := io.ReadFull(f, b)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return b[:n], err
}

// Sniff returns the media type head (a file's first bytes) shows, without
// parameters: http.DetectContentType's answer, with the photo formats it
// does not know (HEIC, HEIF, AVIF) added.
func Sniff(head []byte) string {
	if t := isoPhoto(head); t != "" {
		return t
	}
	t, _, _ := mime.ParseMediaType(http.DetectContentType(head))
	if t == "" {
		return "application/octet-stream"
	}
	return t
}

// isoPhoto recognises an ISO base media file (an "ftyp" box first) whose
// brand is a still-image format phones save photos in.
func isoPhoto(head []byte) string {
	if len(head) < 12 || string(head[4:8]) != "ftyp" {
		return ""
	}
	switch string(head[8:12]) {
	case "heic", "heix", "heim", "heis":
		return "image/heic"
	case "mif1", "msf1":
		return "image/heif"
	case "avif", "avis":
		return "image/avif"
	}
	return ""
}

// imageExts are the file name extensions that declare an image.
var imageExts = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".bmp": true,
	".heic": true, ".heif": true, ".avif": true, ".tif": true, ".tiff": true, ".svg": true,
}

// check returns the upload's media type from its bytes. A file declared
// an image (by its type or its name's extension) must be one: a disguised
// file is refused with EInvalid. An image type the model APIs take must
// also decode (its header at least), so a PNG signature on garbage does
// not reach the model.
func check(path string, head []byte, name, declared string) (string, error) {
	typ := Sniff(head)
	declType, _, _ := mime.ParseMediaType(declared)
	claimsImage := strings.HasPrefix(declType, "image/") || imageExts[strings.ToLower(filepath.Ext(name))]
	isImage := strings.HasPrefix(typ, "image/")
	if claimsImage && !isImage {
		said := declType
		if !strings.HasPrefix(said, "image/") {
			said = "an image (by its name)"
		}
		return "", conv.Errorf(conv.EInvalid, "%q is declared %s, but its bytes are %s", displayName(name), said, typ)
	}
	if conv.ImageType(typ) && typ != "image/webp" {
		f, err := os.Open(path)
		if err != nil {
			return "", conv.Wrap(conv.EInternal, err, "read the upload back")
		}
		defer f.Close()
		if _, _, err := image.DecodeConfig(f); err != nil {
			return "", conv.Errorf(conv.EInvalid, "%q starts like %s but is not a readable image: %v", displayName(name), typ, err)
		}
	}
	return typ, nil
}

// extOf is the extension lab gives a file of type typ ("" when the
// type has none of its own).
func extOf(typ string) string {
	switch typ {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "image/bmp":
		return ".bmp"
	case "image/heic":
		return ".heic"
	case "image/heif":
		return ".heif"
	case "image/avif":
		return ".avif"
	case "application/pdf":
		return ".pdf"
	case "application/zip":
		return ".zip"
	case "application/x-gzip":
		return ".gz"
	}
	return ""
}

// nameMax bounds the name lab gives a file (its id prefix aside).
const nameMax = 64

// FileName is the name lab stores a file of type typ under, made from the
// name the client gave: its base name only, letters, digits, dots, dashes
// and underscores kept and anything else turned into a dash, no leading
// dot, at most nameMax bytes, and an image's extension always the one
// its bytes show (a CLI recognises an image path by it). A text file
// keeps its own short extension (an agent reads .py as Python); a binary
// file of a type with no extension of its own gets .bin.
func FileName(name, typ string) string {
	base := filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	if base == "." || base == "/" {
		base = ""
	}
	base = strings.TrimLeft(base, ".") // a dotfile's name is its stem
	ext := strings.ToLower(filepath.Ext(base))
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	var b strings.Builder
	dash := false
	for _, r := range stem {
		ok := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
		if !ok {
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		dash = false
		b.WriteRune(r)
	}
	clean := strings.Trim(b.String(), ".-")
	if clean == "" {
		clean = "upload"
	}
	want := extOf(typ)
	switch {
	case strings.HasPrefix(typ, "image/") && want != "":
		ext = want
	case safeExt(ext) && !imageExts[ext]:
	case want != "":
		ext = want
	case typ == "text/plain":
		ext = ".txt"
	default:
		ext = ".bin"
	}
	if len(clean)+len(ext) > nameMax {
		clean = strings.TrimRight(clean[:nameMax-len(ext)], ".-")
	}
	return clean + ext
}

// safeExt reports whether ext (with its dot) is a short, plain extension.
func safeExt(ext string) bool {
	if len(ext) < 2 || len(ext) > 11 {
		return false
	}
	for _, r := range ext[1:] {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// displayName is a client's file name as error messages quote it.
func displayName(name string) string {
	name = filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	if len(name) > 80 {
		name = name[:80]
	}
	if name == "" || name == "." {
		return "the upload"
	}
	return name
}
