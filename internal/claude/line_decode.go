package claude

import "bytes"

// Results of foldPeek.
const (
	peekMore = iota // the bytes so far cannot tell yet
	peekFull        // the line needs a full parse
	peekSkip        // a bookkeeping line, skippable from its prefix alone
)

// foldPeek looks at the start of a line for `{"type":"<t>"` and says
// whether the line can be skipped without reading the rest. The CLI writes
// its bookkeeping records (request blobs of many megabytes among them) with
// type as the first key, so most bytes of a transcript are skipped after a
// dozen. A line whose first key is not type, or whose type is one the chat
// shows, gets a full parse. Only the prefix is inspected, so a held partial
// line and the same line complete always get the same verdict.
func foldPeek(b []byte) int {
	i := jsWS(b, 0)
	if i >= len(b) {
		return peekMore
	}
	if b[i] != '{' {
		return peekFull
	}
	i = jsWS(b, i+1)
	const key = `"type"`
	n := min(len(b)-i, len(key))
	if string(b[i:i+n]) != key[:n] {
		return peekFull
	}
	if n < len(key) {
		return peekMore
	}
	i = jsWS(b, i+len(key))
	if i >= len(b) {
		return peekMore
	}
	if b[i] != ':' {
		return peekFull
	}
	i = jsWS(b, i+1)
	if i >= len(b) {
		return peekMore
	}
	if b[i] != '"' {
		return peekFull
	}
	e := jsSkipString(b, i)
	if e < 0 {
		return peekMore
	}
	if foldShownType(b[i:e]) {
		return peekFull
	}
	return peekSkip
}

// foldShownType reports whether a raw type value names a line the chat
// may show; every other type is bookkeeping.
func foldShownType(raw []byte) bool {
	switch string(raw) {
	case `"user"`, `"assistant"`, `"system"`:
		return true
	}
	return false
}

// foldLine holds the raw top-level fields of one transcript line that the
// fold reads. Values are slices of the line; nothing is decoded yet.
type foldLine struct {
	typ            []byte
	subtype        []byte
	sidechain      bool
	meta           bool
	compactSummary bool
	apiError       bool
	timestamp      []byte
	sessionID      []byte
	message        []byte
	toolUseResult  []byte
	toolDenialKind []byte
	permDecision   []byte // permissionDecision: how a tool's permission was decided
	userFeedback   []byte // what the operator told the agent with a denial
	content        []byte // system lines
	compactMeta    []byte
	retryAttempt   []byte
	maxRetries     []byte
	attachment     []byte
}

// parse fills ln from a complete line, reporting false when the line is
// not one well-formed JSON object.
func (ln *foldLine) parse(b []byte) bool {
	*ln = foldLine{}
	o := jsLineObject(b)
	for {
		k, v, ok := o.next()
		if !ok {
			break
		}
		switch string(k) {
		case "type":
			ln.typ = v
		case "subtype":
			ln.subtype = v
		case "isSidechain":
			ln.sidechain = jsTrue(v)
		case "isMeta":
			ln.meta = jsTrue(v)
		case "isCompactSummary":
			ln.compactSummary = jsTrue(v)
		case "isApiErrorMessage":
			ln.apiError = jsTrue(v)
		case "timestamp":
			ln.timestamp = v
		case "sessionId":
			ln.sessionID = v
		case "message":
			ln.message = v
		case "toolUseResult":
			ln.toolUseResult = v
		case "toolDenialKind":
			ln.toolDenialKind = v
		case "permissionDecision":
			ln.permDecision = v
		case "userFeedback":
			ln.userFeedback = v
		case "content":
			ln.content = v
		case "compactMetadata":
			ln.compactMeta = v
		case "retryAttempt":
			ln.retryAttempt = v
		case "maxRetries":
			ln.maxRetries = v
		case "attachment":
			ln.attachment = v
		}
	}
	if o.bad {
		return false
	}
	return jsWS(b, o.end()) == len(b)
}

// foldMessage holds the raw fields of a line's `message` object.
type foldMessage struct {
	role       []byte
	content    []byte
	stopReason []byte
}

func (m *foldMessage) parse(raw []byte) bool {
	*m = foldMessage{}
	o := jsObjectAt(raw)
	for {
		k, v, ok := o.next()
		if !ok {
			break
		}
		switch string(k) {
		case "role":
			m.role = v
		case "content":
			m.content = v
		case "stop_reason":
			m.stopReason = v
		}
	}
	return !o.bad
}

// foldBlock holds the raw fields of one content block.
type foldBlock struct {
	typ       []byte
	text      []byte
	thinking  []byte
	id        []byte
	name      []byte
	input     []byte
	toolUseID []byte
	content   []byte
	isError   bool
}

func (bl *foldBlock) parse(raw []byte) bool {
	*bl = foldBlock{}
	o := jsObjectAt(raw)
	for {
		k, v, ok := o.next()
		if !ok {
			break
		}
		switch string(k) {
		case "type":
			bl.typ = v
		case "text":
			bl.text = v
		case "thinking":
			bl.thinking = v
		case "id":
			bl.id = v
		case "name":
			bl.name = v
		case "input":
			bl.input = v
		case "tool_use_id":
			bl.toolUseID = v
		case "content":
			bl.content = v
		case "is_error":
			bl.isError = jsTrue(v)
		}
	}
	return !o.bad
}

// jsMember returns the raw value of key in the object raw, or nil.
func jsMember(raw []byte, key string) []byte {
	o := jsObjectAt(raw)
	var found []byte
	for {
		k, v, ok := o.next()
		if !ok {
			return found
		}
		if string(k) == key {
			found = v // the last duplicate wins, as in encoding/json
		}
	}
}

// jsIsObject reports whether raw is a JSON object.
func jsIsObject(raw []byte) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}
