package push

import (
	"net/url"
	"path"
	"strings"
	"unicode/utf8"

	"lab/internal/conv"
)

// Reason says why a push is sent.
type Reason string

const (
	ReasonBlocked Reason = "blocked"  // a dialog or permission prompt waits
	ReasonTurnEnd Reason = "turn_end" // the agent finished its turn
	ReasonTest    Reason = "test"     // the operator asked for a test push
)

// Payload is the JSON a push carries to lab's service worker, which shows
// it as a notification; tapping it opens URL. Tag is per run, so a newer
// push about a run replaces the older notification instead of stacking.
type Payload struct {
	Reason Reason `json:"reason"`
	RunID  string `json:"run_id,omitempty"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	Body   string `json:"body"`
	Tag    string `json:"tag"`
	// Quiet notifications make no sound or vibration (a finished turn).
	Quiet bool `json:"quiet,omitempty"`
	// Actions answer a blocked run's simple dialog from the notification
	// (actions.go); only on devices that opted in to content.
	Actions []Action `json:"actions,omitempty"`
}

// maxBody bounds a notification's text: phones show two or three lines,
// and a push must stay well under the 4 KB record webpush-go sends.
const maxBody = 180

// About is what a push is about: the run (with the chat layer's
// overlay) and, when blocked, the dialog that waits.
type About struct {
	Run    conv.Run
	Dialog *conv.Dialog
}

// payloadFor words a push. Without content the notification names only
// the run's folder, its machine when it is a peer's, and what kind of
// thing waits; the run's title (its
// first prompt), questions, plans and messages go in only when the device
// opted in to conversation content.
func payloadFor(reason Reason, s About, content bool) Payload {
	p := Payload{
		Reason: reason,
		RunID:  s.Run.ID,
		URL:    runURL(s.Run.ID),
		Tag:    "run-" + s.Run.ID,
	}
	dir := path.Base(s.Run.Cwd)
	if s.Run.Cwd == "" {
		dir = "a run"
	}
	// A run of another machine (a peer's, relayed by this hub) says
	// which machine it is on.
	on, at := "", ""
	if m := s.Run.Machine; m != "" {
		on, at = " on "+m, m+" · "
	}
	switch reason {
	case ReasonBlocked:
		p.Title = "lab: a run" + on + " needs you"
		p.Body = dir + ": " + waitingWhat(s.Dialog)
		if content {
			p.Title = clip(at+firstNonEmpty(s.Run.Title, dir), 80)
			p.Body = clip(firstNonEmpty(conv.DialogLine(s.Dialog), s.Run.Preview, waitingWhat(s.Dialog)), maxBody)
		}
	case ReasonTurnEnd:
		p.Quiet = true
		p.Title = "lab: your turn" + on
		p.Body = dir + ": the agent finished its turn"
		if content {
			p.Title = clip(at+firstNonEmpty(s.Run.Title, dir), 80)
			p.Body = clip(firstNonEmpty(s.Run.Preview, "The agent finished its turn"), maxBody)
		}
	}
	return p
}

// runURL is the app's path of a run's chat.
func runURL(id string) string { return "/runs/" + url.PathEscape(id) }

// testPayload is the push the settings screen's test button sends.
func testPayload(deviceName string) Payload {
	return Payload{
		Reason: ReasonTest,
		URL:    "/settings",
		Title:  "lab: test notification",
		Body:   clip("Push works on "+deviceName+".", maxBody),
		Tag:    "test",
	}
}

// waitingWhat names what waits without quoting it.
func waitingWhat(d *conv.Dialog) string {
	if d == nil {
		return "it waits for your answer"
	}
	switch d.Kind {
	case conv.DialogQuestion:
		if len(d.Questions) > 1 {
			return "questions are waiting"
		}
		return "a question is waiting"
	case conv.DialogPlan:
		return "a plan waits for approval"
	case conv.DialogPermission:
		return "a permission prompt is waiting"
	}
	return "it waits for your answer"
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

// clip makes s one line of at most n runes, with an ellipsis when cut.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
