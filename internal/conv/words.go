package conv

import "strings"

// DialogLine is a dialog in one line of its own words, for a list or a
// notification: the first question, what a permission prompt would allow
// ("Allow <tool>: npm test?"), or a plan's first line ("Plan: …"). "" when
// it has none.
func DialogLine(d *Dialog) string {
	if d == nil {
		return ""
	}
	if len(d.Questions) > 0 {
		return oneLine(d.Questions[0].Question)
	}
	if p := d.Permission; p != nil {
		what := oneLine(p.Command)
		if what == "" {
			what = p.Path
		}
		if what == "" {
			what, _, _ = strings.Cut(strings.TrimSpace(p.Summary), "\n")
		}
		if what == "" {
			return "Allow " + p.Tool + "?"
		}
		return "Allow " + p.Tool + ": " + what + "?"
	}
	for _, line := range strings.Split(d.Plan, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(line, "# "))
		// A plan's heading often says "Plan: …" itself.
		line = strings.TrimSpace(strings.TrimPrefix(line, "Plan:"))
		if line != "" {
			return "Plan: " + line
		}
	}
	return ""
}

// oneLine folds runs of white space, newlines included.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
