package clikit

import (
	"strings"
	"testing"

	"lab/internal/agent"
)

type check string

func (c check) Match(string) (string, error) { return "", nil }
func (c check) What() string                 { return string(c) }

func TestRecipe(t *testing.T) {
	r := Recipe{Acts: func(k string) bool { return k == "Space" }}
	r.Expect(check("fresh"))
	r.Move(2)
	r.Key("Space")
	r.Move(1)
	r.Paste("text")
	r.Commit()
	var got []string
	for _, s := range r.Steps {
		d := s.String()
		if s.Acts {
			d += "!"
		}
		got = append(got, d)
	}
	want := `expect fresh|Down|Down|Space!|Up|paste "text"!|Enter (commit)!`
	if strings.Join(got, "|") != want || r.Pos != 1 {
		t.Errorf("steps %s at row %d; want %s at row 1", strings.Join(got, "|"), r.Pos, want)
	}
	if r.Steps[0].Kind != agent.StepExpect || r.Steps[0].Check.What() != "fresh" {
		t.Errorf("first step %+v; want the checkpoint", r.Steps[0])
	}
}
