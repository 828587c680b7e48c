package peer

import (
	"bytes"
	"errors"

	"lab/internal/conv"
)

// The relay's one rule for a peer's JSON answers, small and explicit so
// that endpoints added later are relayed right without the hub knowing
// them:
//
//   - only the answer's own object and the objects directly inside its
//     arrays are looked at (a Run, a Session, a list's rows), never
//     deeper (a message's tool call keeps its own "id");
//   - there, a non-empty string under "id", "run_id" or "session_id"
//     gets the peer's prefix ("<peer>~<id>"), and a string under
//     "machine" becomes the peer's name at the hub;
//   - everything else is copied byte for byte, and a body that is not
//     valid JSON is passed on unchanged.
//
// lists.go applies the same rule to the lists the hub merges.

var (
	prefixedKeys = [][]byte{[]byte(`"id"`), []byte(`"run_id"`), []byte(`"session_id"`)}
	machineKey   = []byte(`"machine"`)
)

// maxDepth bounds the nesting the rewriter walks; deeper is refused as
// invalid (and passed on unchanged).
const maxDepth = 512

var errBadJSON = errors.New("not valid JSON")

// rewriteIDs applies the rule to body for peer.
func rewriteIDs(body []byte, peer string) []byte {
	w := rewriter{in: body, out: make([]byte, 0, len(body)+256), prefix: []byte(peer + conv.MachineSep), name: []byte(`"` + peer + `"`)}
	w.space()
	var err error
	if w.i < len(w.in) && w.in[w.i] == '{' {
		err = w.object(true, true)
	} else {
		err = w.copyValue(0)
	}
	w.space()
	if err != nil || w.i != len(w.in) {
		return body
	}
	return w.out
}

type rewriter struct {
	in     []byte
	i      int
	out    []byte
	prefix []byte // "peer~"
	name   []byte // "\"peer\""
}

// space copies whitespace.
func (w *rewriter) space() {
	for w.i < len(w.in) {
		switch w.in[w.i] {
		case ' ', '\t', '\n', '\r':
			w.out = append(w.out, w.in[w.i])
			w.i++
		default:
			return
		}
	}
}

// object copies an object at w.i, rewriting its fields when rewritable;
// top says it is the answer's own object, whose arrays' objects are
// rewritable too.
func (w *rewriter) object(rewritable, top bool) error {
	if w.open('}') {
		return nil
	}
	for {
		w.space()
		start := w.i
		if err := w.skipString(); err != nil {
			return err
		}
		key := w.in[start:w.i]
		w.out = append(w.out, key...)
		w.space()
		if w.i >= len(w.in) || w.in[w.i] != ':' {
			return errBadJSON
		}
		w.out = append(w.out, ':')
		w.i++
		w.space()
		if w.i >= len(w.in) {
			return errBadJSON
		}
		var err error
		switch c := w.in[w.i]; {
		case rewritable && c == '"' && isPrefixed(key):
			err = w.prefixString()
		case rewritable && c == '"' && bytes.Equal(key, machineKey):
			if err = w.skipString(); err == nil {
				w.out = append(w.out, w.name...)
			}
		case top && c == '[':
			err = w.array()
		default:
			err = w.copyValue(1)
		}
		if more, err := w.next(err, '}'); !more {
			return err
		}
	}
}

// array copies an array of the answer's own object, rewriting the
// objects directly in it.
func (w *rewriter) array() error {
	if w.open(']') {
		return nil
	}
	for {
		w.space()
		if w.i >= len(w.in) {
			return errBadJSON
		}
		var err error
		if w.in[w.i] == '{' {
			err = w.object(true, false)
		} else {
			err = w.copyValue(2)
		}
		if more, err := w.next(err, ']'); !more {
			return err
		}
	}
}

// open copies a container's opening byte at w.i and reports whether it
// is empty (its end, copied too, follows).
func (w *rewriter) open(end byte) bool {
	w.out = append(w.out, w.in[w.i])
	w.i++
	w.space()
	if w.i < len(w.in) && w.in[w.i] == end {
		w.out = append(w.out, end)
		w.i++
		return true
	}
	return false
}

// next copies what follows a member or an element (after err, the
// value's own failure): a comma, when more follow, or the container's
// end. more is false when the container ended or failed (then err says).
func (w *rewriter) next(err error, end byte) (more bool, _ error) {
	if err != nil {
		return false, err
	}
	w.space()
	if w.i >= len(w.in) {
		return false, errBadJSON
	}
	switch w.in[w.i] {
	case ',':
		w.out = append(w.out, ',')
		w.i++
		return true, nil
	case end:
		w.out = append(w.out, end)
		w.i++
		return false, nil
	}
	return false, errBadJSON
}

func isPrefixed(key []byte) bool {
	for _, k := range prefixedKeys {
		if bytes.Equal(key, k) {
			return true
		}
	}
	return false
}

// prefixString copies the string at w.i with the peer's prefix inside
// its quotes, unless it is empty.
func (w *rewriter) prefixString() error {
	start := w.i
	if err := w.skipString(); err != nil {
		return err
	}
	s := w.in[start:w.i]
	if len(s) == 2 {
		w.out = append(w.out, s...)
		return nil
	}
	w.out = append(w.out, '"')
	w.out = append(w.out, w.prefix...)
	w.out = append(w.out, s[1:]...)
	return nil
}

// copyValue copies any value at w.i verbatim.
func (w *rewriter) copyValue(depth int) error {
	start := w.i
	if err := w.skipValue(depth); err != nil {
		return err
	}
	w.out = append(w.out, w.in[start:w.i]...)
	return nil
}

// skipValue moves w.i past one value, checking its syntax.
func (w *rewriter) skipValue(depth int) error {
	if depth > maxDepth {
		return errBadJSON
	}
	w.skipSpace()
	if w.i >= len(w.in) {
		return errBadJSON
	}
	switch c := w.in[w.i]; {
	case c == '"':
		return w.skipString()
	case c == '{' || c == '[':
		return w.skipContainer(depth)
	case c == '-' || c >= '0' && c <= '9':
		return w.skipNumber()
	case c == 't':
		return w.skipWord("true")
	case c == 'f':
		return w.skipWord("false")
	case c == 'n':
		return w.skipWord("null")
	}
	return errBadJSON
}

func (w *rewriter) skipSpace() {
	for w.i < len(w.in) && (w.in[w.i] == ' ' || w.in[w.i] == '\t' || w.in[w.i] == '\n' || w.in[w.i] == '\r') {
		w.i++
	}
}

func (w *rewriter) skipContainer(depth int) error {
	obj := w.in[w.i] == '{'
	end := byte(']')
	if obj {
		end = '}'
	}
	w.i++
	w.skipSpace()
	if w.i < len(w.in) && w.in[w.i] == end {
		w.i++
		return nil
	}
	for {
		w.skipSpace()
		if obj {
			if err := w.skipString(); err != nil {
				return err
			}
			w.skipSpace()
			if w.i >= len(w.in) || w.in[w.i] != ':' {
				return errBadJSON
			}
			w.i++
		}
		if err := w.skipValue(depth + 1); err != nil {
			return err
		}
		w.skipSpace()
		if w.i >= len(w.in) {
			return errBadJSON
		}
		switch w.in[w.i] {
		case ',':
			w.i++
		case end:
			w.i++
			return nil
		default:
			return errBadJSON
		}
	}
}

// skipString moves past a string: its quotes, escapes and no raw control
// characters.
func (w *rewriter) skipString() error {
	if w.i >= len(w.in) || w.in[w.i] != '"' {
		return errBadJSON
	}
	for j := w.i + 1; j < len(w.in); j++ {
		switch c := w.in[j]; {
		case c == '"':
			w.i = j + 1
			return nil
		case c == '\\':
			j++
			if j >= len(w.in) {
				return errBadJSON
			}
			if w.in[j] == 'u' {
				if j+4 >= len(w.in) || !isHex4(w.in[j+1:j+5]) {
					return errBadJSON
				}
				j += 4
			} else if !bytes.ContainsRune([]byte(`"\/bfnrt`), rune(w.in[j])) {
				return errBadJSON
			}
		case c < 0x20:
			return errBadJSON
		}
	}
	return errBadJSON
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// skipNumber moves past a number in JSON's grammar.
func (w *rewriter) skipNumber() error {
	in, i := w.in, w.i
	if i < len(in) && in[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(in) && in[i] >= '0' && in[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(in) && in[i] == '0':
		i++
	case digits() == 0:
		return errBadJSON
	}
	if i < len(in) && in[i] == '.' {
		i++
		if digits() == 0 {
			return errBadJSON
		}
	}
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		i++
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			i++
		}
		if digits() == 0 {
			return errBadJSON
		}
	}
	w.i = i
	return nil
}

func (w *rewriter) skipWord(word string) error {
	if !bytes.HasPrefix(w.in[w.i:], []byte(word)) {
		return errBadJSON
	}
	w.i += len(word)
	return nil
}
