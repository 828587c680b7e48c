package fakeapi

import (
	"slices"
	"strings"
	"testing"
)

func TestPickScenario(t *testing.T) {
	kws := []string{"lab:text", "lab:form", "lab:form3", "lab:plan"}
	pick := func(prompt string) string {
		return kws[PickScenario(prompt, kws, func(s *string) string { return *s })]
	}
	for prompt, want := range map[string]string{
		"lab:form3 please":        "lab:form3",
		"lab:form, then lab:plan": "lab:form",
		"a lab:form3x prompt":     "lab:text",
		"nothing":                 "lab:text",
		"do lab:plan.":            "lab:plan",
	} {
		if got := pick(prompt); got != want {
			t.Errorf("%q picked %s; want %s", prompt, got, want)
		}
	}
}

func TestChunksAndWords(t *testing.T) {
	s := "ünïcode text in pieces"
	for n := 1; n <= 5; n++ {
		c := Chunks(s, n)
		if strings.Join(c, "") != s || len(c) > n {
			t.Errorf("Chunks(%d) = %q", n, c)
		}
	}
	if Chunks("", 3) != nil {
		t.Error("Chunks of nothing is not empty")
	}
	if got := Words("a few  words"); !slices.Equal(got, []string{"a ", "few ", " ", "words"}) {
		t.Errorf("Words = %q", got)
	}
}

func TestOptionsDefaults(t *testing.T) {
	o := Options{}.WithDefaults()
	if o.ChunkDelay <= 0 || o.SlowChunks <= 0 || o.Logger == nil {
		t.Errorf("defaults %+v", o)
	}
	if o := (Options{ChunkDelay: 7, SlowChunks: 3}).WithDefaults(); o.ChunkDelay != 7 || o.SlowChunks != 3 {
		t.Errorf("set options changed: %+v", o)
	}
}

func TestJoinText(t *testing.T) {
	texts := func(typ, _ string) bool { return typ == "text" }
	for raw, want := range map[string]string{
		``:        "",
		`"plain"`: "plain",
		`[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}]`: "a\nb",
		`{"odd":1}`: `{"odd":1}`,
	} {
		if got := JoinText([]byte(raw), texts); got != want {
			t.Errorf("JoinText(%s) = %q; want %q", raw, got, want)
		}
	}
}
