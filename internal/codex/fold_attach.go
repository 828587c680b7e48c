package codex

import (
	"regexp"
	"strings"

	"lab/internal/conv"
	"lab/internal/foldkit"
	"lab/internal/jsonscan"
)

// imageRE is how the input box and the prompt's text show an attached
// image: "[Image #1]", then at most a space (0.171.0).
var imageRE = regexp.MustCompile(`\[Image #\d+\] ?`)

// A user message with images (pasted paths, or --image at start) carries
// each as three parts: an input_text opening tag naming it and its path,
// `<image name=[Image #1] path="/…/shot.png">`, the input_image itself
// (image_url: a base64 data URL), and an input_text closing `</image>`;
// the prompt's own text follows (0.171.0).
const (
	imageOpen  = "<image name="
	imageClose = "</image>"
)

// userParts walks a user message's content: it returns the text parts
// joined with blank lines, the image tags left out, and gives image each
// input_image's data URL value (raw JSON) with the name its tag gave it.
func userParts(content []byte, image func(name string, url []byte)) string {
	if s, ok := jsonscan.String(content); ok {
		return s
	}
	var parts []string
	name := ""
	arr := jsonscan.ArrayAt(content)
	for el, ok := arr.Next(); ok; el, ok = arr.Next() {
		switch jsonscan.Str(jsonscan.Member(el, "type")) {
		case "input_text", "text":
			s := jsonscan.Str(jsonscan.Member(el, "text"))
			switch {
			case strings.HasPrefix(s, imageOpen) && strings.HasSuffix(s, ">"):
				name = imageTagPath(s)
			case s == imageClose:
				name = ""
			default:
				parts = append(parts, s)
			}
		case "input_image", "image":
			if image != nil {
				image(name, jsonscan.Member(el, "image_url"))
			}
		}
	}
	return strings.Join(parts, "\n\n")
}

// imageTagPath is the file name an image tag gives (its path's base, lab's
// upload id prefix dropped), "" when it names none.
func imageTagPath(tag string) string {
	_, after, ok := strings.Cut(tag, ` path="`)
	if !ok {
		return ""
	}
	path, _, ok := strings.Cut(after, `"`)
	if !ok || path == "" {
		return ""
	}
	return conv.UploadName(path)
}

// userContent reads a user message: its text and its images, each located
// in the file (foldkit.ImageAt) when it is a data URL.
func (f *Fold) userContent(content []byte) (string, []conv.AttachedFile) {
	var images []conv.AttachedFile
	text := userParts(content, func(name string, url []byte) {
		// Only base64 data can be served back; a remote URL is the
		// model's to fetch.
		head, _, ok := jsonscan.StringPrefix(url, 64)
		if typ, rest, found := strings.Cut(strings.TrimPrefix(head, "data:"), ";"); ok && found && strings.HasPrefix(head, "data:") && strings.HasPrefix(rest, "base64,") {
			images = append(images, foldkit.ImageAt(typ, name, url, f.raw, f.LineStart()))
		}
	})
	return text, images
}
