package conv

// Attention is how much a run wants its operator, the order the runs list
// sorts by. It follows from the state, but says it in the operator's
// words: "blocked" cannot go on without an answer, "your turn" could but
// waits for the next prompt.
type Attention string

const (
	AttentionBlocked  Attention = "blocked"   // a dialog or permission prompt waits
	AttentionYourTurn Attention = "your_turn" // the turn ended: needs input
	AttentionWorking  Attention = "working"
	AttentionIdle     Attention = "idle"
	AttentionEnded    Attention = "ended"
)

// AttentionOf derives a run's attention from its state and whether a
// dialog is pending.
func AttentionOf(s State, pending bool) Attention {
	switch {
	case s == StateEnded:
		return AttentionEnded
	case pending || s == StateQuestion:
		return AttentionBlocked
	case s == StateNeedsInput:
		return AttentionYourTurn
	case s == StateWorking:
		return AttentionWorking
	}
	return AttentionIdle
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
	case AttentionIdle:
		return 3
	}
	return 4
}
