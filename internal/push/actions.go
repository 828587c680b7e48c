package push

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"sync"
	"time"

	"lab/internal/conv"
)

// Notification actions: a blocked run's push may offer the answer itself
// ("Allow once" / "Deny" on a permission prompt, the options of a short
// question), so the operator answers from the notification without
// opening the app.
//
// The service worker that handles a tap on an action cannot read the
// page's CSRF token and may run when no login session is alive, so the
// push carries its own credential: each action gets a random token (32
// bytes) that authorizes exactly that answer to exactly that dialog
// (run, tool_id, option) and nothing else. The server keeps only each
// token's SHA-256, in memory; the tokens of one push are one group, and
// redeeming any of them burns the whole group, so a notification answers
// at most once. A token expires after ActionTTL, and all of them with a
// restart. Redeeming goes through the same answer path as the app
// (Runs.Answer: the dialog must still be pending with the same tool_id,
// the pane is checked before the committing key), after checking that the
// option the notification named is still the one at that index. The
// tokens travel only inside the push payload, which is encrypted for the
// device (RFC 8291), and only to devices that opted in to conversation
// content: a notification that does not say what it allows offers no
// Allow.

// ActionTTL is how long a notification's actions stay valid.
const ActionTTL = time.Hour

// maxActions is how many actions a notification offers (what browsers
// show: Chrome shows two).
const maxActions = 2

// Action is one answer a notification offers: Action is the id the
// service worker's notificationclick names, Token the credential that
// redeems it.
type Action struct {
	Action string `json:"action"`
	Title  string `json:"title"`
	Token  string `json:"token"`
}

// ActResult is what redeeming an action did: the run it answered, and the
// URL that shows it.
type ActResult struct {
	RunID string `json:"run_id"`
	URL   string `json:"url"`
}

// choice is one answer a notification can give, and what the dialog must
// still show for it to mean the same.
type choice struct {
	title  string
	answer conv.Answer
	label  string // the option's label (and role) at push time
	role   conv.OptionRole
}

// grant is what one token allows.
type grant struct {
	runID   string
	toolID  string
	choice  choice
	group   string // the push the token came with
	expires time.Time
}

// actions issues and redeems action tokens. Safe for concurrent use.
type actions struct {
	ttl time.Duration
	now func() time.Time

	mu     sync.Mutex
	grants map[[sha256.Size]byte]grant
}

func newActions(ttl time.Duration, now func() time.Time) *actions {
	if ttl <= 0 {
		ttl = ActionTTL
	}
	if now == nil {
		now = time.Now
	}
	return &actions{ttl: ttl, now: now, grants: map[[sha256.Size]byte]grant{}}
}

// choices are the answers a notification offers for d: a permission
// prompt's "allow once" and "deny" rows, or the options of a single
// single-select question with at most maxActions of them. Anything else
// (plans, forms, longer questions, free text) is answered in the app.
func choices(d *conv.Dialog) []choice {
	if d == nil || !d.Answerable || d.Outcome != nil {
		return nil
	}
	switch d.Kind {
	case conv.DialogPermission:
		if d.Permission == nil {
			return nil
		}
		// The buttons say what the row does in lab's words: the CLI's
		// labels are long and carry its key hints.
		var allow, deny *choice
		for i, o := range d.Permission.Options {
			c := &choice{answer: conv.Answer{ToolID: d.ToolID, Option: &i}, label: o.Label, role: o.Role}
			switch {
			case o.Role == conv.RoleAllowOnce && allow == nil:
				c.title, allow = "Allow once", c
			case o.Role == conv.RoleDeny && deny == nil:
				c.title, deny = "Deny", c
			}
		}
		if allow == nil || deny == nil {
			return nil
		}
		return []choice{*allow, *deny}
	case conv.DialogQuestion:
		if len(d.Questions) != 1 || d.Questions[0].MultiSelect {
			return nil
		}
		opts := d.Questions[0].Options
		if len(opts) == 0 || len(opts) > maxActions {
			return nil
		}
		out := make([]choice, len(opts))
		for i, o := range opts {
			out[i] = choice{title: o.Label, label: o.Label,
				answer: conv.Answer{ToolID: d.ToolID, Answers: []conv.QuestionAnswer{{Chosen: []int{i}}}}}
		}
		return out
	}
	return nil
}

// issue makes the tokens of one push about runID's dialog d; nil when the
// dialog offers no simple answer.
func (a *actions) issue(runID string, d *conv.Dialog) []Action {
	cs := choices(d)
	if len(cs) == 0 {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	a.sweep(now)
	group := newToken()
	out := make([]Action, 0, len(cs))
	for i, c := range cs {
		tok := newToken()
		a.grants[sha256.Sum256([]byte(tok))] = grant{runID: runID, toolID: d.ToolID, choice: c, group: group, expires: now.Add(a.ttl)}
		out = append(out, Action{Action: "answer-" + strconv.Itoa(i), Title: clip(c.title, 40), Token: tok})
	}
	return out
}

// take finds a token's grant and burns its whole group. Returns
// conv.ENotFound for an unknown, used or expired token.
func (a *actions) take(token string) (grant, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	g, ok := a.grants[sha256.Sum256([]byte(token))]
	if ok {
		for k, o := range a.grants {
			if o.group == g.group {
				delete(a.grants, k)
			}
		}
	}
	if !ok || !now.Before(g.expires) {
		return grant{}, conv.Errorf(conv.ENotFound, "this notification's answer has expired or was already used: open the run to answer")
	}
	return g, nil
}

// sweep forgets expired grants; called with a.mu held.
func (a *actions) sweep(now time.Time) {
	for k, g := range a.grants {
		if !now.Before(g.expires) {
			delete(a.grants, k)
		}
	}
}

// stillMeans reports whether the pending dialog d still offers c where
// the notification saw it.
func (c choice) stillMeans(d *conv.Dialog) bool {
	switch {
	case c.answer.Option != nil:
		i := *c.answer.Option
		if d.Permission == nil || i >= len(d.Permission.Options) {
			return false
		}
		o := d.Permission.Options[i]
		return o.Label == c.label && o.Role == c.role
	case len(c.answer.Answers) == 1 && len(d.Questions) == 1:
		i := c.answer.Answers[0].Chosen[0]
		opts := d.Questions[0].Options
		return i < len(opts) && opts[i].Label == c.label
	}
	return false
}

// Act redeems an action token: it answers the dialog the token names, if
// that dialog is still the one waiting and still offers that answer where
// the notification saw it. Returns conv.ENotFound for an unknown, used or
// expired token, conv.EConflict (with the run to open in the error's
// message) when the dialog was answered, changed or is gone, and whatever
// the answer path returns.
func (n *Notifier) Act(ctx context.Context, token string) (ActResult, error) {
	if token == "" {
		return ActResult{}, conv.Errorf(conv.EInvalid, "token is required")
	}
	g, err := n.actions.take(token)
	if err != nil {
		return ActResult{}, err
	}
	res := ActResult{RunID: g.runID, URL: runURL(g.runID)}
	if n.runs == nil {
		return res, conv.Errorf(conv.EUnavailable, "lab is starting: try again")
	}
	page, err := n.runs.Messages(ctx, g.runID, conv.Query{Limit: 1})
	if err != nil {
		return res, err
	}
	d := page.PendingDialog
	if !d.Pending() || d.ToolID != g.toolID || !g.choice.stillMeans(d) {
		return res, conv.Errorf(conv.EConflict, "the run no longer waits on that prompt: it was answered or changed")
	}
	if err := n.runs.Answer(ctx, g.runID, g.choice.answer); err != nil {
		return res, err
	}
	n.log.Info("push: answered from a notification", "run", g.runID, "tool", g.toolID, "answer", g.choice.title)
	return res, nil
}

func newToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
