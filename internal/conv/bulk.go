package conv

// BulkResult says what a bulk action on runs did: the runs it acted on,
// and the ones it left alone with the reason (they changed since the
// operator confirmed, or the action does not apply to them).
type BulkResult struct {
	Done    []string  `json:"done"`
	Skipped []Skipped `json:"skipped"`
}

// Skipped is one run a bulk action left alone.
type Skipped struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}
