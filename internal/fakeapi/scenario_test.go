package fakeapi

import (
	"net/http/httptest"
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
