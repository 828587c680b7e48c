// Package jsonscan is a minimal JSON scanner over the raw bytes of one
// transcript line, shared by the adapters' folds.
//
// Why not encoding/json: transcript lines reach tens of megabytes (request
// blobs, tool outputs a line carries twice), and a chat needs a few short
// fields of each. A generic decode allocates the whole tree; even a struct
// decode validates and copies every byte through a byte-at-a-time state
// machine. This scanner walks the structure, jumps over string bodies with
// bytes.IndexByte (vectorised), and hands back raw slices that are decoded
// only when the fold actually shows them.
//
// It validates structure (brackets, commas, colons, string termination and
// escapes, literals, number grammar) so a torn or corrupt line is detected
// and skipped. It does not check UTF-8, which encoding/json coerces to
// U+FFFD on output anyway, nor reject raw control characters inside
// strings: the CLIs' serialisers never write them, and looking for them
// would take a byte-by-byte pass over every string.
package jsonscan

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds nesting, like encoding/json, so hostile input cannot
// grow the container stack without limit.
const maxDepth = 10000

// WS returns the index of the first non-whitespace byte at or after i.
func WS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// SkipString returns the index just past the string starting at b[i]
// (which must be '"'), or -1 if it is unterminated or has a bad escape.
func SkipString(b []byte, i int) int { return skipStr(b, i, true) }

// skipStr is SkipString with the escape check optional: parts of a line
// already validated as a whole are walked again without it.
func skipStr(b []byte, i int, check bool) int {
	j := i + 1
	v := j // escapes before v are checked
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		// Check the escapes up to this quote now, while its stretch is in
		// the cache: a long string is read once, not once for its quotes
		// and again for its escapes.
		if check {
			var ok bool
			if v <= q {
				if v, ok = escapesUpTo(b, v, q); !ok {
					return -1
				}
			}
			if v <= q { // no escape took the quote: it ends the string
				return q + 1
			}
			j = q + 1
			continue
		}
		// The quote is escaped when an odd run of backslashes precedes it:
		// a maximal run starts a fresh escape, so pairs cancel out.
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// escapesUpTo checks every backslash escape that starts in b[v:q], where
// b[q] is a quote (an escape at q-1 takes it for its character), so a
// line with a bad escape counts as malformed instead of decoding oddly
// later. It returns the index past the last escape checked. Stretches
// without backslashes, the bulk of big outputs' bytes, cost one
// vectorised scan.
func escapesUpTo(b []byte, v, q int) (int, bool) {
	for {
		k := bytes.IndexByte(b[v:q], '\\')
		if k < 0 {
			return q, true
		}
		k += v
		switch b[k+1] { // k+1 <= q < len(b)
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			v = k + 2
		case 'u':
			if hex4(b[k:]) < 0 {
				return 0, false
			}
			v = k + 6
		default:
			return 0, false
		}
		if v > q {
			return v, true
		}
	}
}

// skipNumber returns the index just past the number at b[i], or -1.
func skipNumber(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		s := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == s {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		s := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == s {
			return -1
		}
	}
	return i
}

// skipLiteral returns the index past lit at b[i], or -1.
func skipLiteral(b []byte, i int, lit string) int {
	if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
		return i + len(lit)
	}
	return -1
}

// skipKeyColon expects `"key" :` at b[i] (after whitespace) and returns
// the index past the colon, or -1.
func skipKeyColon(b []byte, i int, check bool) int {
	i = WS(b, i)
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	if i = skipStr(b, i, check); i < 0 {
		return -1
	}
	i = WS(b, i)
	if i >= len(b) || b[i] != ':' {
		return -1
	}
	return i + 1
}

// SkipValue returns the index just past the JSON value starting at or
// after b[i] (leading whitespace allowed), or -1 if it is malformed or
// truncated. It is iterative, so nesting depth costs no Go stack.
func SkipValue(b []byte, i int) int { return skip(b, i, true) }

// skip is SkipValue with the escape check optional (see skipStr).
func skip(b []byte, i int, check bool) int {
	var stackBuf [64]byte
	stack := stackBuf[:0]
	for {
		// A value is expected at i.
		i = WS(b, i)
		if i >= len(b) {
			return -1
		}
		switch c := b[i]; c {
		case '"':
			i = skipStr(b, i, check)
		case '{', '[':
			if len(stack) >= maxDepth {
				return -1
			}
			i = WS(b, i+1)
			if i >= len(b) {
				return -1
			}
			if (c == '{' && b[i] == '}') || (c == '[' && b[i] == ']') {
				i++ // an empty container is a complete value
				break
			}
			stack = append(stack, c)
			if c == '{' {
				if i = skipKeyColon(b, i, check); i < 0 {
					return -1
				}
			}
			continue
		case 't':
			i = skipLiteral(b, i, "true")
		case 'f':
			i = skipLiteral(b, i, "false")
		case 'n':
			i = skipLiteral(b, i, "null")
		default:
			i = skipNumber(b, i)
		}
		if i < 0 {
			return -1
		}
		// After a value: close containers or move to the next element.
	after:
		for {
			if len(stack) == 0 {
				return i
			}
			i = WS(b, i)
			if i >= len(b) {
				return -1
			}
			top := stack[len(stack)-1]
			switch c := b[i]; {
			case c == ',':
				i++
				if top == '{' {
					if i = skipKeyColon(b, i, check); i < 0 {
						return -1
					}
				}
				break after
			case (top == '{' && c == '}') || (top == '[' && c == ']'):
				i++
				stack = stack[:len(stack)-1]
			default:
				return -1
			}
		}
	}
}

// Object iterates the members of a JSON object, yielding each raw key
// (between the quotes, escapes left as they are) and raw value.
type Object struct {
	b     []byte
	i     int
	start bool
	bad   bool
	check bool // validate escapes (a whole line) or trust them (a part of one)
}

// ObjectAt starts iterating the object raw must be exactly, trusting
// escapes: raw is a part of a line LineObject already validated, or a
// value only read best-effort. A non-object iterates nothing and reports
// bad.
func ObjectAt(raw []byte) Object {
	i := WS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return Object{bad: true}
	}
	return Object{b: raw, i: i + 1, start: true}
}

// LineObject is ObjectAt for a whole untrusted line: every escape
// is checked on the way.
func LineObject(raw []byte) Object {
	o := ObjectAt(raw)
	o.check = true
	return o
}

// next returns the next member; ok is false at the end or on malformed
// input (then bad is set).
func (o *Object) Next() (key, val []byte, ok bool) {
	if o.bad || o.b == nil {
		return nil, nil, false
	}
	b := o.b
	i := WS(b, o.i)
	if i >= len(b) {
		o.bad = true
		return nil, nil, false
	}
	if o.start {
		o.start = false
		if b[i] == '}' {
			o.b = nil
			o.i = i + 1
			return nil, nil, false
		}
	} else {
		switch b[i] {
		case '}':
			o.b = nil
			o.i = i + 1
			return nil, nil, false
		case ',':
			i = WS(b, i+1)
		default:
			o.bad = true
			return nil, nil, false
		}
	}
	if i >= len(b) || b[i] != '"' {
		o.bad = true
		return nil, nil, false
	}
	ke := skipStr(b, i, o.check)
	if ke < 0 {
		o.bad = true
		return nil, nil, false
	}
	key = b[i+1 : ke-1]
	j := WS(b, ke)
	if j >= len(b) || b[j] != ':' {
		o.bad = true
		return nil, nil, false
	}
	vs := WS(b, j+1)
	ve := skip(b, vs, o.check)
	if ve < 0 {
		o.bad = true
		return nil, nil, false
	}
	o.i = ve
	return key, b[vs:ve], true
}

// Bad reports whether iteration stopped on malformed input.
func (o *Object) Bad() bool { return o.bad }

// End returns the index just past the closing brace once next has
// returned false without bad.
func (o *Object) End() int { return o.i }

// Line walks b, a whole untrusted line, as one object: it gives each
// member's raw key and value to member, in order, checking every escape
// on the way, and reports whether b is exactly one well-formed object
// (white space around it allowed). Members before a fault have been given.
func Line(b []byte, member func(k, v []byte)) bool {
	o := LineObject(b)
	for k, v, ok := o.Next(); ok; k, v, ok = o.Next() {
		member(k, v)
	}
	return !o.Bad() && WS(b, o.End()) == len(b)
}

// Members is Line for raw, an object inside a line already validated or a
// value read best-effort (escapes trusted, see ObjectAt): it reports
// whether raw is a well-formed object.
func Members(raw []byte, member func(k, v []byte)) bool {
	o := ObjectAt(raw)
	for k, v, ok := o.Next(); ok; k, v, ok = o.Next() {
		member(k, v)
	}
	return !o.Bad()
}

// Array iterates the elements of a JSON array, trusting escapes (arrays
// are only ever read inside a validated line, or best-effort).
type Array struct {
	b     []byte
	i     int
	start bool
	bad   bool
}

// ArrayAt starts iterating the array raw must be exactly.
func ArrayAt(raw []byte) Array {
	i := WS(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return Array{bad: true}
	}
	return Array{b: raw, i: i + 1, start: true}
}

func (a *Array) Next() (val []byte, ok bool) {
	if a.bad || a.b == nil {
		return nil, false
	}
	vs, ok := a.element()
	if !ok {
		return nil, false
	}
	ve := skip(a.b, vs, false)
	if ve < 0 {
		a.bad = true
		return nil, false
	}
	a.i = ve
	return a.b[vs:ve], true
}

// element moves past the separator before the next element and returns
// where the element starts; false at the end (the array is done) or on
// malformed input (bad).
func (a *Array) element() (int, bool) {
	b := a.b
	i := WS(b, a.i)
	if i >= len(b) {
		a.bad = true
		return 0, false
	}
	if a.start {
		a.start = false
		if b[i] == ']' {
			a.b = nil
			return 0, false
		}
	} else {
		switch b[i] {
		case ']':
			a.b = nil
			return 0, false
		case ',':
			i++
		default:
			a.bad = true
			return 0, false
		}
	}
	i = WS(b, i)
	if i >= len(b) {
		a.bad = true
		return 0, false
	}
	return i, true
}

// NextMembers is Next for an array of objects, walking each element once:
// an object element's members go to member (as Members gives them) and
// object is true; any other element is skipped. ok is false at the end or
// on malformed input (then Bad is set).
func (a *Array) NextMembers(member func(k, v []byte)) (object, ok bool) {
	if a.bad || a.b == nil {
		return false, false
	}
	i, ok := a.element()
	if !ok {
		return false, false
	}
	if a.b[i] != '{' {
		ve := skip(a.b, i, false)
		if ve < 0 {
			a.bad = true
			return false, false
		}
		a.i = ve
		return false, true
	}
	o := Object{b: a.b, i: i + 1, start: true}
	for k, v, ok := o.Next(); ok; k, v, ok = o.Next() {
		member(k, v)
	}
	if o.bad {
		a.bad = true
		return false, false
	}
	a.i = o.i
	return true, true
}

// Bad reports whether iteration stopped on malformed input.
func (a *Array) Bad() bool { return a.bad }

// IsString reports whether raw is a JSON string.
func IsString(raw []byte) bool { return len(raw) >= 2 && raw[0] == '"' }

// True reports whether raw is the literal true.
func True(raw []byte) bool { return string(raw) == "true" }

// String decodes a JSON string value; anything else yields "" and false.
func String(raw []byte) (string, bool) {
	if !IsString(raw) {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body), true
	}
	out, _, ok := unescape(body, -1)
	return string(out), ok
}

// Str is String without the ok.
func Str(raw []byte) string {
	s, _ := String(raw)
	return s
}

// StringPrefix decodes at most max bytes of a JSON string value (cut on
// a rune boundary) and returns the full decoded length, so a multi-megabyte
// tool output costs one scan and a few KB of copying.
func StringPrefix(raw []byte, max int) (prefix string, full int, ok bool) {
	if !IsString(raw) {
		return "", 0, false
	}
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body[:RuneCut(body, max)]), len(body), true
	}
	out, full, ok := unescape(body, max)
	return string(out), full, ok
}

// RuneCut returns the largest n <= max such that b[:n] does not end
// inside a UTF-8 sequence.
func RuneCut(b []byte, max int) int {
	if max < 0 || max >= len(b) {
		return len(b)
	}
	n := max
	for n > 0 && n > max-utf8.UTFMax && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

// unescape decodes the body of a JSON string (between the quotes). With
// max >= 0 it stops copying once max output bytes are reached but keeps
// counting, returning the full decoded length. Invalid escapes fail; lone
// surrogates become U+FFFD as encoding/json does.
func unescape(body []byte, max int) (out []byte, full int, ok bool) {
	capHint := len(body)
	if max >= 0 && max < capHint {
		capHint = max
	}
	out = make([]byte, 0, capHint)
	copying := true
	emit := func(p []byte) {
		full += len(p)
		if !copying {
			return
		}
		if max >= 0 && len(out)+len(p) > max {
			room := max - len(out)
			out = append(out, p[:RuneCut(p, room)]...)
			copying = false
			return
		}
		out = append(out, p...)
	}
	var rb [utf8.UTFMax]byte
	for len(body) > 0 {
		if !copying {
			// The prefix is full: only count what the rest decodes to.
			n, ok := decodedLen(body)
			return out, full + n, ok
		}
		k := bytes.IndexByte(body, '\\')
		if k < 0 {
			emit(body)
			break
		}
		emit(body[:k])
		body = body[k:]
		if len(body) < 2 {
			return out, full, false
		}
		var c byte
		switch body[1] {
		case '"', '\\', '/':
			c = body[1]
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'u':
			r, n := decodeU(body)
			if n == 0 {
				return out, full, false
			}
			emit(rb[:utf8.EncodeRune(rb[:], r)])
			body = body[n:]
			continue
		default:
			return out, full, false
		}
		rb[0] = c
		emit(rb[:1])
		body = body[2:]
	}
	return out, full, true
}

// decodedLen returns the length body (a string's, between the quotes)
// decodes to, and false on a bad escape, as unescape would without
// copying: a multi-megabyte output's full size costs one scan.
func decodedLen(body []byte) (int, bool) {
	n := 0
	for {
		k := bytes.IndexByte(body, '\\')
		if k < 0 {
			return n + len(body), true
		}
		n += k
		if k+1 >= len(body) {
			return n, false
		}
		switch body[k+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			n++
			body = body[k+2:]
		case 'u':
			r, m := decodeU(body[k:])
			if m == 0 {
				return n, false
			}
			n += utf8.RuneLen(r)
			body = body[k+m:]
		default:
			return n, false
		}
	}
}

// decodeU decodes a \uXXXX escape (and its low surrogate when it is a
// high one) at the start of b, returning the rune and the bytes consumed,
// or 0 consumed when malformed.
func decodeU(b []byte) (rune, int) {
	r := hex4(b)
	if r < 0 {
		return 0, 0
	}
	if utf16.IsSurrogate(r) {
		if r2 := hex4(b[6:]); r2 >= 0 && len(b) >= 12 && b[6] == '\\' {
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				return d, 12
			}
		}
		return utf8.RuneError, 6
	}
	return r, 6
}

// hex4 parses `\uXXXX` at the start of b, or returns -1.
func hex4(b []byte) rune {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// Member returns the raw value of key in the object raw, or nil. Escapes
// are trusted (see ObjectAt); the last duplicate wins, as in encoding/json.
func Member(raw []byte, key string) []byte {
	o := ObjectAt(raw)
	var found []byte
	for {
		k, v, ok := o.Next()
		if !ok {
			return found
		}
		if string(k) == key {
			found = v
		}
	}
}

// IsObject reports whether raw is a JSON object.
func IsObject(raw []byte) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}

// Key decodes a raw key as Object.Next returns it (the bytes between the
// quotes, escapes as written).
func Key(raw []byte) (string, bool) {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw), true
	}
	out, _, ok := unescape(raw, -1)
	return string(out), ok
}

// Int decodes a JSON integer value; anything else (a fraction, a string,
// null, an overflow) yields 0.
func Int(raw []byte) int64 {
	var n int64
	if len(raw) == 0 || len(raw) > 19 {
		return 0
	}
	neg := raw[0] == '-'
	if neg {
		raw = raw[1:]
		if len(raw) == 0 {
			return 0
		}
	}
	for _, c := range raw {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		return -n
	}
	return n
}
