package peer

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func TestRewriteIDs(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"a run", `{"id":"r1","machine":"host","session_id":"s-1","cwd":"/w","state":"idle"}`,
			`{"id":"b~r1","machine":"b","session_id":"b~s-1","cwd":"/w","state":"idle"}`},
		{"a list's rows", `{"runs":[{"id":"r1"},{"id":"r2","run_id":"r0"}],"machines":[{"name":"x","local":true}]}`,
			`{"runs":[{"id":"b~r1"},{"id":"b~r2","run_id":"b~r0"}],"machines":[{"name":"x","local":true}]}`},
		{"never deeper", `{"messages":[{"seq":1,"tool":{"id":"toolu_1"},"dialog":{"tool_id":"t"}}],"pending_dialog":{"id":"x"}}`,
			`{"messages":[{"seq":1,"tool":{"id":"toolu_1"},"dialog":{"tool_id":"t"}}],"pending_dialog":{"id":"x"}}`},
		{"empty ids stay empty", `{"id":"","run_id":""}`, `{"id":"","run_id":""}`},
		{"non-strings stay", `{"id":7,"run_id":null,"machine":false,"session_id":{"id":"x"}}`, `{"id":7,"run_id":null,"machine":false,"session_id":{"id":"x"}}`},
		{"escapes kept", `{"id":"a\"b\u00e9\\"}`, `{"id":"b~a\"b\u00e9\\"}`},
		{"space kept", "{ \"id\" : \"r1\" ,\n \"n\": [ 1 , {\"id\" :\"x\"} ] }\n", "{ \"id\" : \"b~r1\" ,\n \"n\": [ 1 , {\"id\" :\"b~x\"} ] }\n"},
		{"arrays of arrays untouched", `{"a":[[{"id":"x"}]]}`, `{"a":[[{"id":"x"}]]}`},
		{"a top-level array untouched", `[{"id":"x"}]`, `[{"id":"x"}]`},
		{"not JSON passes as is", `{"id":"r1",}`, `{"id":"r1",}`},
		{"trailing data passes as is", `{"id":"r1"} {}`, `{"id":"r1"} {}`},
		{"empty", ``, ``},
		{"numbers", `{"n":-1.5e+3,"m":0,"id":"x"}`, `{"n":-1.5e+3,"m":0,"id":"b~x"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(rewriteIDs([]byte(tc.in), "b")); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// reference applies the rule on decoded JSON, the slow obvious way.
func reference(v any, peer string) any {
	top, ok := v.(map[string]any)
	if !ok {
		return v
	}
	fix := func(m map[string]any) {
		for _, k := range []string{"id", "run_id", "session_id"} {
			if s, ok := m[k].(string); ok && s != "" {
				m[k] = peer + "~" + s
			}
		}
		if _, ok := m["machine"].(string); ok {
			m["machine"] = peer
		}
	}
	fix(top)
	for _, val := range top {
		if arr, ok := val.([]any); ok {
			for _, el := range arr {
				if m, ok := el.(map[string]any); ok {
					fix(m)
				}
			}
		}
	}
	return top
}

func FuzzRewriteIDs(f *testing.F) {
	for _, s := range []string{
		`{"id":"r1","runs":[{"id":"a","machine":"m","x":{"id":"deep"}}]}`,
		`{"sessions":[{"id":"s","run_id":"r"}],"total":1}`,
		`{"a":"\u0041","id":"\ud83d\ude00"}`, `[1,2]`, `"x"`, `{}`, `{"id":"x"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := rewriteIDs(in, "pe-er")
		var v any
		dec := json.NewDecoder(bytes.NewReader(in))
		dec.UseNumber()
		if !json.Valid(in) || dec.Decode(&v) != nil {
			if !bytes.Equal(out, in) {
				t.Fatalf("invalid input changed: %q -> %q", in, out)
			}
			return
		}
		var got any
		dec = json.NewDecoder(bytes.NewReader(out))
		dec.UseNumber()
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("output is not JSON: %q -> %q: %v", in, out, err)
		}
		if want := reference(v, "pe-er"); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q\ngot  %v\nwant %v", in, got, want)
		}
	})
}
