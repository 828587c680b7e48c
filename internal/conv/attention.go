package conv

import "time"

// Attention is how much a run wants its operator, the order the runs list
// sorts by. It follows from the state, but says it in the operator's
// words: "blocked" cannot go on without an answer, "your turn" could but
// waits for the next prompt, and "seen" is a turn that ended and that the
// operator has read since: still waiting, but no news.
type Attention string

const (
	AttentionBlocked  Attention = "blocked"   // a dialog or permission prompt waits
	AttentionYourTurn Attention = "your_turn" // the turn ended: needs input
	AttentionWorking  Attention = "working"
	AttentionSeen     Attention = "seen" // the turn ended and the operator has read it since
	AttentionIdle     Attention = "idle"
	AttentionEnded    Attention = "ended"
)

// AttentionOf derives a run's attention from its state, whether a dialog
// is pending, and whether the operator has read the run since its last
// activity (SeenSince).
func AttentionOf(s State, pending, seen bool) Attention {
	switch {
	case s == StateEnded:
		return AttentionEnded
	case pending || s == StateQuestion:
		return AttentionBlocked
	case s == StateNeedsInput && seen:
		return AttentionSeen
	case s == StateNeedsInput:
		return AttentionYourTurn
	case s == StateWorking:
		return AttentionWorking
	}
	return AttentionIdle
}

// SeenSince reports whether the operator read a run (seen, nil when
// never) no earlier than its last activity (nil when none yet).
func SeenSince(seen, activity *time.Time) bool {
	return seen != nil && (activity == nil || !seen.Before(*activity))
}

// Rank orders attention levels, most urgent first (0).
func (a Attention) Rank() int {
	switch a {
	case AttentionBlocked:
		return 0
	case AttentionYourTurn:
		return 1
	case AttentionWorking:
		return 2
	case AttentionSeen:
		return 3
	case AttentionIdle:
		return 4
	}
	return 5
}
