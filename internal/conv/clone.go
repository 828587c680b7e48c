package conv

import "slices"

// Clone returns a deep copy of d (nil for nil), so a caller may keep or
// change it without touching the stream it came from.
func (d *Dialog) Clone() *Dialog {
	if d == nil {
		return nil
	}
	c := *d
	if d.Questions != nil {
		c.Questions = make([]Question, len(d.Questions))
		for i, q := range d.Questions {
			q.Options = slices.Clone(q.Options)
			c.Questions[i] = q
		}
	}
	c.PlanRows = slices.Clone(d.PlanRows)
	if d.Permission != nil {
		p := *d.Permission
		p.Options = slices.Clone(d.Permission.Options)
		c.Permission = &p
	}
	c.Outcome = d.Outcome.Clone()
	return &c
}

// Clone returns a deep copy of o (nil for nil).
func (o *Outcome) Clone() *Outcome {
	if o == nil {
		return nil
	}
	c := *o
	if o.Results != nil {
		c.Results = make([]QuestionResult, len(o.Results))
		for i, r := range o.Results {
			r.Chosen = slices.Clone(r.Chosen)
			c.Results[i] = r
		}
	}
	return &c
}
