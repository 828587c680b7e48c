package fakeapi

import (
	"net/http/httptest"
	"strings"
	"testing"
)

type testScenario struct {
	ScenarioInfo
	script string
}

func TestScenarioTable(t *testing.T) {
	table := []testScenario{{Info("text", "default", ""), "t"}, {Info("form", "a form", "plan"), "f"}, {Info("form3", "three", ""), "f3"}}
	infos := Infos(table)
	if len(infos) != 3 || infos[1] != (ScenarioInfo{Name: "form", Keyword: "lab:form", Summary: "a form", Mode: "plan"}) {
		t.Fatalf("infos %+v; want the table's, keywords lab:<name>", infos)
	}
	for prompt, want := range map[string]string{"do lab:form3 now": "f3", "lab:form": "f", "nothing": "t"} {
		if got := Pick(prompt, table).script; got != want {
			t.Errorf("%q picked %s; want %s", prompt, got, want)
		}
	}
}

// A fake's request embeds Request; Add numbers it in arrival order.
func TestReceivedAndAdd(t *testing.T) {
	type fakeReq struct {
		Request
		Body string
	}
	b := NewBase[fakeReq]("test", Options{})
	for _, path := range []string{"/a", "/b?x=1"} {
		r := fakeReq{Request: Received(httptest.NewRequest("POST", path, nil), "other"), Body: path}
		Add(&b, &r)
	}
	got := b.Requests()
	if len(got) != 2 || got[0].Seq != 1 || got[1].Seq != 2 || got[1].Path != "/b" || got[1].RawQuery != "x=1" || got[1].Kind != "other" || got[1].Time.IsZero() {
		t.Fatalf("got %+v; want two numbered requests with their paths and queries", got)
	}
}

func TestReadEchoAndSlowScripts(t *testing.T) {
	type turn []string
	say := func(s string) string { return "say " + s }
	read := func(path string) string { return "read " + path }
	got := ReadTurns("see\n[Attached file: /tmp/a b.txt]\n", say, read, turn{"echo"})
	if len(got) != 2 || len(got[0]) != 2 || got[0][1] != "read /tmp/a b.txt" || got[1][0] != "echo" {
		t.Fatalf("with a file: %q; want a turn reading it, then the echo", got)
	}
	if got := ReadTurns("no file", say, read, turn{"echo"}); len(got) != 1 || got[0][0] != "say No file was attached to read." {
		t.Fatalf("without a file: %q; want one turn saying so", got)
	}
	if got := EchoText(nil); got != "Done." {
		t.Errorf("EchoText(nil) = %q; want Done.", got)
	}
	if got := EchoText([]string{"a", "b"}); got != "a\n\nb" {
		t.Errorf("EchoText(a, b) = %q; want a paragraph each", got)
	}
	s := SlowText(13)
	if !strings.HasPrefix(s, "Streaming slowly: word1 ") || !strings.HasSuffix(s, "word13 finished.") || strings.Count(s, "\n") != 1 {
		t.Errorf("SlowText(13) = %q; want 13 words, twelve a line, between the markers", s)
	}
}
