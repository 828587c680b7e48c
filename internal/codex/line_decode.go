package codex

import (
	"lab/internal/foldkit"
	"lab/internal/jsonscan"
)

// foldPeekMembers bounds how many leading members the peek walks before
// giving up and asking for a full parse.
const foldPeekMembers = 4

// foldPeek looks at the start of a line, {"timestamp":…,"ordinal":…,
// "type":"<t>","payload":{"type":"<p>",…, and says whether the line can be
// skipped without reading the rest. The CLI writes every record with its
// scalar header keys first, so bookkeeping (world state snapshots, token
// counts, turn contexts, and the UI's item events that repeat every
// command output) is skipped after a few dozen bytes. Only complete
// tokens of the prefix are inspected, so a held partial line and the same
// line complete always get the same verdict.
func foldPeek(b []byte) foldkit.Verdict {
	i := jsonscan.WS(b, 0)
	if i >= len(b) {
		return foldkit.PeekMore
	}
	if b[i] != '{' {
		return foldkit.PeekFull
	}
	i++
	for n := 0; n < foldPeekMembers; n++ {
		if n > 0 {
			var st tok
			if i, st = peekByte(b, i, ','); st != tokOK {
				return st.verdict()
			}
		}
		key, j, st := peekKey(b, i)
		if st != tokOK {
			return st.verdict()
		}
		i = j
		if key != "type" {
			if i, st = peekScalar(b, i); st != tokOK {
				return st.verdict()
			}
			continue
		}
		typ, j, st := peekString(b, i)
		if st != tokOK {
			return st.verdict()
		}
		switch typ {
		case "response_item", "session_meta", "compacted", "turn_context":
			return foldkit.PeekFull
		case "event_msg":
			return peekEvent(b, j)
		}
		return foldkit.PeekSkip // world_state, token_usage_record, retained_context, …
	}
	return foldkit.PeekFull
}

// peekEvent reads `,"payload":{"type":"<p>"` after an event_msg's type and
// skips the events the chat does not show.
func peekEvent(b []byte, i int) foldkit.Verdict {
	i, st := peekByte(b, i, ',')
	if st != tokOK {
		return st.verdict()
	}
	key, i, st := peekKey(b, i)
	if st != tokOK {
		return st.verdict()
	}
	if key != "payload" {
		return foldkit.PeekFull
	}
	if i, st = peekByte(b, i, '{'); st != tokOK {
		return st.verdict()
	}
	if key, i, st = peekKey(b, i); st != tokOK {
		return st.verdict()
	}
	if key != "type" {
		return foldkit.PeekFull
	}
	ev, _, st := peekString(b, i)
	if st != tokOK {
		return st.verdict()
	}
	if foldShownEvent(ev) {
		return foldkit.PeekFull
	}
	return foldkit.PeekSkip
}

// foldShownEvent reports whether an event_msg type moves the chat, its
// state, its settings (the model and permissions a change applied) or the
// usage meter; the rest (the UI's item events, older versions' copies of
// the messages) is bookkeeping.
func foldShownEvent(ev string) bool {
	switch ev {
	case "task_started", "task_complete", "turn_aborted", "error", "warning", "stream_error", "context_compacted", "thread_rolled_back",
		"thread_settings_applied", "token_count":
		return true
	}
	return false
}

// tok is how reading one token of a prefix went.
type tok int

const (
	tokOK   tok = iota // read
	tokMore            // the bytes end first
	tokOdd             // not what the CLI writes there: let the full parse decide
)

func (t tok) verdict() foldkit.Verdict {
	if t == tokMore {
		return foldkit.PeekMore
	}
	return foldkit.PeekFull
}

// peekByte expects c at b[i] after white space and returns the index past it.
func peekByte(b []byte, i int, c byte) (int, tok) {
	i = jsonscan.WS(b, i)
	if i >= len(b) {
		return 0, tokMore
	}
	if b[i] != c {
		return 0, tokOdd
	}
	return i + 1, tokOK
}

// peekKey reads `"key" :` at b[i] (after white space), returning the key
// and the index past the colon.
func peekKey(b []byte, i int) (string, int, tok) {
	s, j, st := peekString(b, i)
	if st != tokOK {
		return "", 0, st
	}
	j, st = peekByte(b, j, ':')
	return s, j, st
}

// peekString reads a string without escapes at b[i] (after white space)
// and returns it and the index past it; escapes are not in the keys and
// type names the CLI writes.
func peekString(b []byte, i int) (string, int, tok) {
	i = jsonscan.WS(b, i)
	if i >= len(b) {
		return "", 0, tokMore
	}
	if b[i] != '"' {
		return "", 0, tokOdd
	}
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '"':
			return string(b[i+1 : j]), j + 1, tokOK
		case '\\':
			return "", 0, tokOdd
		}
	}
	return "", 0, tokMore
}

// peekScalar skips a string, number or literal value at b[i]; objects and
// arrays are not a header's, so the peek gives up on them.
func peekScalar(b []byte, i int) (int, tok) {
	i = jsonscan.WS(b, i)
	if i >= len(b) {
		return 0, tokMore
	}
	if b[i] == '"' {
		// Unterminated so far, or a bad escape: both wait for the whole
		// line, whose full parse decides.
		if e := jsonscan.SkipString(b, i); e >= 0 {
			return e, tokOK
		}
		return 0, tokMore
	}
	j := i
	for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == '-' || b[j] == '+' || b[j] == '.' || b[j] >= 'a' && b[j] <= 'z' || b[j] == 'E') {
		j++
	}
	if j == len(b) {
		return 0, tokMore
	}
	if j == i {
		return 0, tokOdd
	}
	return j, tokOK
}

// rolloutLine holds the raw top-level fields of one rollout line. Values
// are slices of the line; nothing is decoded yet.
type rolloutLine struct {
	timestamp []byte
	typ       []byte
	payload   []byte
}

// parse fills ln from a complete line, reporting false when the line is
// not one well-formed JSON object.
func (ln *rolloutLine) parse(b []byte) bool {
	*ln = rolloutLine{}
	return jsonscan.Line(b, ln.set)
}

// set keeps one member: the fields of a rollout line (a per-CLI table).
func (ln *rolloutLine) set(k, v []byte) {
	switch string(k) {
	case "timestamp":
		ln.timestamp = v
	case "type":
		ln.typ = v
	case "payload":
		ln.payload = v
	}
}

// payloadItem holds the raw fields of a line's payload the fold reads:
// response items (messages, reasoning, calls and outputs), events and the
// session meta.
type payloadItem struct {
	typ       []byte
	role      []byte
	content   []byte
	summary   []byte
	name      []byte
	arguments []byte
	callID    []byte
	input     []byte
	output    []byte
	id        []byte
	status    []byte
	action    []byte
	metadata  []byte // internal_chat_message_metadata_passthrough
	reason    []byte // turn_aborted
	message   []byte // error, warning, compacted
	mode      []byte // task_started: collaboration_mode_kind
	numTurns  []byte // thread_rolled_back
	settings  []byte // thread_settings_applied: thread_settings
	window    []byte // task_started: model_context_window
	info      []byte // token_count
	// turn_context (and inside thread_settings): the model, the sandbox
	// policy, the collaboration mode and the active permission profile.
	model         []byte
	sandboxPolicy []byte
	collabMode    []byte
	profile       []byte
}

func (it *payloadItem) parse(raw []byte) bool {
	*it = payloadItem{}
	return jsonscan.Members(raw, it.set)
}

// set keeps one member: the fields of a payload the fold reads (a per-CLI
// table).
func (it *payloadItem) set(k, v []byte) {
	switch string(k) {
	case "type":
		it.typ = v
	case "role":
		it.role = v
	case "content":
		it.content = v
	case "summary":
		it.summary = v
	case "name":
		it.name = v
	case "arguments":
		it.arguments = v
	case "call_id":
		it.callID = v
	case "input":
		it.input = v
	case "output":
		it.output = v
	case "id":
		it.id = v
	case "status":
		it.status = v
	case "action":
		it.action = v
	case "internal_chat_message_metadata_passthrough":
		it.metadata = v
	case "reason":
		it.reason = v
	case "message":
		it.message = v
	case "collaboration_mode_kind":
		it.mode = v
	case "num_turns":
		it.numTurns = v
	case "thread_settings":
		it.settings = v
	case "model":
		it.model = v
	case "sandbox_policy":
		it.sandboxPolicy = v
	case "collaboration_mode":
		it.collabMode = v
	case "active_permission_profile":
		it.profile = v
	case "model_context_window":
		it.window = v
	case "info":
		it.info = v
	}
}
