package peer

import (
	"testing"

	"lab/internal/conv"
)

func TestSplitAndJoin(t *testing.T) {
	for _, tc := range []struct {
		id, peer, own string
		ok            bool
	}{
		{"build~a1b2c3", "build", "a1b2c3", true},
		{"box-2~c0ffee~x", "box-2", "c0ffee~x", true},
		{"a1b2c3", "", "", false},
		{"Build~x", "", "", false},
		{"~x", "", "", false},
		{"build~", "", "", false},
	} {
		peer, own, ok := Split(tc.id)
		if peer != tc.peer || own != tc.own || ok != tc.ok {
			t.Errorf("Split(%q) = %q, %q, %v; want %q, %q, %v", tc.id, peer, own, ok, tc.peer, tc.own, tc.ok)
		}
		if ok && Join(peer, own) != tc.id {
			t.Errorf("Join(Split(%q)) = %q", tc.id, Join(peer, own))
		}
	}
}

func TestCheckURL(t *testing.T) {
	for _, tc := range []struct {
		raw       string
		allowHTTP bool
		want      string // "" for refused
	}{
		{"https://lab.example.org", false, "https://lab.example.org"},
		{"https://lab.example.org/lab/", false, "https://lab.example.org/lab"},
		{"http://127.0.0.1:8080", false, "http://127.0.0.1:8080"},
		{"http://localhost:8080/", false, "http://localhost:8080"},
		{"http://[::1]:8080", false, "http://[::1]:8080"},
		{"http://10.0.0.5:8080", false, ""},
		{"http://10.0.0.5:8080", true, "http://10.0.0.5:8080"},
		{"http://build.local:8080", false, ""},
		{"ftp://x", true, ""},
		{"https://user:pw@x", false, ""},
		{"https://x/?q=1", false, ""},
		{"https://x/#f", false, ""},
		{"lab.example.org", false, ""},
		{"", false, ""},
	} {
		u, err := CheckURL(tc.raw, tc.allowHTTP)
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("CheckURL(%q, %v) = %s; want refused", tc.raw, tc.allowHTTP, u)
		case tc.want == "" && conv.KindOf(err) != conv.EInvalid:
			t.Errorf("CheckURL(%q): %v; want an invalid-input error", tc.raw, err)
		case tc.want != "" && (err != nil || u.String() != tc.want):
			t.Errorf("CheckURL(%q, %v) = %v, %v; want %s", tc.raw, tc.allowHTTP, u, err, tc.want)
		}
	}
}

func TestServerSentEventLines(t *testing.T) {
	var e sseEvent
	var got []string
	for _, l := range []string{"retry: 2000", "", ": a comment", "event: run.changed", `data: {"run_id":"r1"}`, "", "data: a", "data: b", "", "", "event: x"} {
		if e.line([]byte(l)) {
			got = append(got, e.typ+"|"+string(e.data))
			e = sseEvent{}
		}
	}
	want := []string{`run.changed|{"run_id":"r1"}`, "|a\nb"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("events %q; want %q", got, want)
	}
}
