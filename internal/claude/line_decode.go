package claude

import (
	"lab/internal/foldkit"
	"lab/internal/jsonscan"
)

// foldPeek looks at the start of a line for `{"type":"<t>"` and says
// whether the line can be skipped without reading the rest. The CLI writes
// its bookkeeping records (request blobs of many megabytes among them) with
// type as the first key, so most bytes of a transcript are skipped after a
// dozen. A line whose first key is not type, or whose type is one the chat
// shows, gets a full parse. Only the prefix is inspected, so a held partial
// line and the same line complete always get the same verdict.
func foldPeek(b []byte) foldkit.Verdict {
	i := jsonscan.WS(b, 0)
	if i >= len(b) {
		return foldkit.PeekMore
	}
	if b[i] != '{' {
		return foldkit.PeekFull
	}
	i = jsonscan.WS(b, i+1)
	const key = `"type"`
	n := min(len(b)-i, len(key))
	if string(b[i:i+n]) != key[:n] {
		return foldkit.PeekFull
	}
	if n < len(key) {
		return foldkit.PeekMore
	}
	i = jsonscan.WS(b, i+len(key))
	if i >= len(b) {
		return foldkit.PeekMore
	}
	if b[i] != ':' {
		return foldkit.PeekFull
	}
	i = jsonscan.WS(b, i+1)
	if i >= len(b) {
		return foldkit.PeekMore
	}
	if b[i] != '"' {
		return foldkit.PeekFull
	}
	e := jsonscan.SkipString(b, i)
	if e < 0 {
		return foldkit.PeekMore
	}
	if foldShownType(b[i:e]) {
		return foldkit.PeekFull
	}
	return foldkit.PeekSkip
}

// foldShownType reports whether a raw type value names a line the chat
// may show; every other type is bookkeeping.
func foldShownType(raw []byte) bool {
	switch string(raw) {
	case `"user"`, `"assistant"`, `"system"`, `"permission-mode"`:
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
	permissionMode []byte // on user and permission-mode lines: the mode then
}

// parse fills ln from a complete line, reporting false when the line is
// not one well-formed JSON object.
func (ln *foldLine) parse(b []byte) bool {
	*ln = foldLine{}
	return jsonscan.Line(b, ln.set)
}

// set keeps one member: the fields of a Claude Code transcript line the
// fold reads (a per-CLI table).
func (ln *foldLine) set(k, v []byte) {
	switch string(k) {
	case "type":
		ln.typ = v
	case "subtype":
		ln.subtype = v
	case "isSidechain":
		ln.sidechain = jsonscan.True(v)
	case "isMeta":
		ln.meta = jsonscan.True(v)
	case "isCompactSummary":
		ln.compactSummary = jsonscan.True(v)
	case "isApiErrorMessage":
		ln.apiError = jsonscan.True(v)
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
	case "permissionMode":
		ln.permissionMode = v
	}
}

// foldMessage holds the raw fields of a line's `message` object.
type foldMessage struct {
	role       []byte
	content    []byte
	stopReason []byte
	id         []byte
	model      []byte
	usage      []byte
}

func (m *foldMessage) parse(raw []byte) bool {
	*m = foldMessage{}
	return jsonscan.Members(raw, m.set)
}

// set keeps one member: the fields of a Claude Code message the fold reads
// (a per-CLI table).
func (m *foldMessage) set(k, v []byte) {
	switch string(k) {
	case "role":
		m.role = v
	case "content":
		m.content = v
	case "stop_reason":
		m.stopReason = v
	case "id":
		m.id = v
	case "model":
		m.model = v
	case "usage":
		m.usage = v
	}
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
	source    []byte // an image's
}

// next fills bl from the next block of a content array, walking it once;
// a block that is not an object is skipped (object false).
func (bl *foldBlock) next(arr *jsonscan.Array) (object, ok bool) {
	*bl = foldBlock{}
	return arr.NextMembers(bl.set)
}

// set keeps one member: the fields of a Claude Code content block the fold
// reads (a per-CLI table).
func (bl *foldBlock) set(k, v []byte) {
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
		bl.isError = jsonscan.True(v)
	case "source":
		bl.source = v
	}
}
