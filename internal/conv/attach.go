package conv

import "strings"

// Kinds of an AttachedFile.
const (
	AttachImage = "image" // an image the model received as image content
	AttachFile  = "file"  // a file handed over as a path the agent can read
)

// AttachedFile is a file the operator attached to a prompt, as the
// transcript recorded it. An image's bytes are served by the attachment
// endpoints (by the message's seq and the attachment's place in
// Attachments); a file is only named.
type AttachedFile struct {
	Kind      string `json:"kind"`
	MediaType string `json:"media_type,omitempty"`
	Name      string `json:"name,omitempty"`
	// Src and Len locate an image's data in the transcript: Len bytes at
	// offset Src hold its JSON string (base64, or a data: URL). Zero for
	// a file. They stay off the wire; lab reads the bytes from there.
	Src int64 `json:"-"`
	Len int   `json:"-"`
}

// Upload is a file the operator sent to lab for a run's agent. lab names
// and stores it (Path, never sent to clients), and hands it over with
// the prompt that names its ID.
type Upload struct {
	ID        string `json:"upload_id"`
	Name      string `json:"name"` // lab's file name: safe, ends in the type's extension
	MediaType string `json:"media_type"`
	Size      int64  `json:"size"`
	Path      string `json:"-"`
}

// Image reports whether the upload is an image a CLI can take as image
// content.
func (u Upload) Image() bool { return ImageType(u.MediaType) }

// ImageType reports whether mediaType is one of the image types the
// model APIs take as image content.
func ImageType(mediaType string) bool {
	switch mediaType {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return true
	}
	return false
}

// fileRefPrefix and fileRefSuffix frame the line that hands a file to the
// agent: the text it reads, the pattern the folds recognise.
const (
	fileRefPrefix = "[Attached file: "
	fileRefSuffix = "]"
)

// WithFileRefs returns text with a line per path naming a file the agent
// can read, after a blank line.
func WithFileRefs(text string, paths []string) string {
	if len(paths) == 0 {
		return text
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(text, "\n"))
	if b.Len() > 0 {
		b.WriteString("\n\n")
	}
	for i, p := range paths {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(fileRefPrefix + p + fileRefSuffix)
	}
	return b.String()
}

// SplitFileRefs undoes WithFileRefs: the text without the trailing file
// lines, and a file attachment per line, named after the file (lab's
// upload id prefix dropped). Text with no such lines comes back as is.
func SplitFileRefs(text string) (string, []AttachedFile) {
	if !strings.Contains(text, fileRefPrefix) {
		return text, nil
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	end := len(lines)
	for end > 0 {
		l := lines[end-1]
		if !strings.HasPrefix(l, fileRefPrefix) || !strings.HasSuffix(l, fileRefSuffix) || !strings.HasPrefix(l[len(fileRefPrefix):], "/") {
			break
		}
		end--
	}
	if end == len(lines) {
		return text, nil
	}
	out := make([]AttachedFile, 0, len(lines)-end)
	for _, l := range lines[end:] {
		out = append(out, AttachedFile{Kind: AttachFile, Name: UploadName(l[len(fileRefPrefix) : len(l)-len(fileRefSuffix)])})
	}
	return strings.TrimRight(strings.Join(lines[:end], "\n"), "\n"), out
}

// UploadName is the name to show for a file at path: its base name,
// without the "<upload id>-" prefix lab gives the files it stores.
func UploadName(path string) string {
	base := path[strings.LastIndexByte(path, '/')+1:]
	if id, rest, ok := strings.Cut(base, "-"); ok && len(id) == UploadIDLen && rest != "" && isLowerHex(id) {
		return rest
	}
	return base
}

// UploadIDLen is the length of an upload id: lowercase hex.
const UploadIDLen = 16

func isLowerHex(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

// Image is an attached image's bytes, read back from a transcript.
type Image struct {
	MediaType string
	Data      []byte
}
