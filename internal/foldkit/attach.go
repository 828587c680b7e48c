package foldkit

import (
	"regexp"

	"lab/internal/conv"
)

// ImageAt is the attachment of an image whose data (base64, or a data:
// URL) is raw, a JSON string value inside line, the line being folded,
// which starts at file offset start (Input.LineStart). Only the data's
// place is kept: the bytes are read from the file when a client asks.
func ImageAt(mediaType, name string, raw, line []byte, start int64) conv.AttachedFile {
	return conv.AttachedFile{Kind: conv.AttachImage, MediaType: mediaType, Name: name, Src: start + int64(cap(line)-cap(raw)), Len: len(raw)}
}

// UserText is what a user message shows and carries: its text without the
// placeholders the CLI wrote for its images (placeholder, removed only
// when the message has images), and its attachments: the images, then a
// file for each file line lab added to the prompt (conv.WithFileRefs).
func UserText(text string, images []conv.AttachedFile, placeholder *regexp.Regexp) (string, []conv.AttachedFile) {
	if len(images) > 0 {
		text = placeholder.ReplaceAllString(text, "")
	}
	text, files := conv.SplitFileRefs(text)
	if len(files) == 0 {
		return text, images
	}
	return text, append(images, files...)
}
