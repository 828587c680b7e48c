package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// valid reports whether b is exactly one JSON value (with whitespace).
func valid(b []byte) bool {
	e := SkipValue(b, 0)
	return e >= 0 && WS(b, e) == len(b)
}

func TestJSSkipValueAgreesWithEncodingJSON(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `""`, `0`, `-0`, `1.5e10`, `-1E-2`, `true`, `false`, `null`, ` {"a" : [1, {"b":null}] } `,
		`{"a":"x\"y\\"}`, `"\\\\"`, `"\u00e9\ud83d\ude00"`, `[[[[[]]]]]`, `{"a":{"b":{"c":[true,false,null]}}}`,
		// malformed
		``, ` `, `{`, `}`, `[`, `[1,]`, `{"a":1,}`, `{"a"}`, `{"a":}`, `{a:1}`, `{"a":1 "b":2}`, `[1 2]`,
		`01`, `1.`, `.5`, `1e`, `-`, `+1`, `tru`, `nul`, `truex`, `"abc`, `"a\"`, `"\x"`, `"\u12"`, `"\u12G4"`,
		`{"a":1}}`, `[1]]`, `{"a":1} {"b":2}`, `"a" "b"`, `{"a":[1,2}`, `[{"a":1]}`, `NaN`, `{"":1}`,
	}
	for _, d := range docs {
		t.Run(d, func(t *testing.T) {
			if got, want := valid([]byte(d)), json.Valid([]byte(d)); got != want {
				t.Errorf("valid(%q) = %v; want %v", d, got, want)
			}
		})
	}
}

func TestJSString(t *testing.T) {
	for _, raw := range []string{
		`""`, `"plain"`, `"a\"b"`, `"back\\slash"`, `"\/\b\f\n\r\t"`, `"\u00e9t\u00E9"`, `"\ud83d\ude00 grin"`,
		`"lone \ud83d high"`, `"lone \ude00 low"`, `"\ud83d\u0041 mixed"`, `"ünïcödé raw"`,
	} {
		t.Run(raw, func(t *testing.T) {
			var want string
			if err := json.Unmarshal([]byte(raw), &want); err != nil {
				t.Fatal(err)
			}
			got, ok := String([]byte(raw))
			if !ok || got != want {
				t.Errorf("String(%s) = %q, %v; want %q", raw, got, ok, want)
			}
			for max := 0; max <= len(want)+1; max++ {
				p, full, ok := StringPrefix([]byte(raw), max)
				if !ok || full != len(want) || !strings.HasPrefix(want, p) || len(p) > max || !utf8.ValidString(p) && utf8.ValidString(want) {
					t.Fatalf("StringPrefix(%s, %d) = %q, %d, %v; want a whole-rune prefix of %q and %d", raw, max, p, full, ok, want, len(want))
				}
				if len(p) < max-utf8.UTFMax+1 && len(p) < len(want) {
					t.Fatalf("StringPrefix(%s, %d) = %q; want it cut no more than one rune short", raw, max, p)
				}
			}
		})
	}
	if _, ok := String([]byte(`123`)); ok {
		t.Error("String(123) reported a string")
	}
}

func TestJSObjectMembers(t *testing.T) {
	o := ObjectAt([]byte(` { "a" : 1 , "b\"c" : {"x":[1,2]}, "d":"s" } `))
	var keys, vals []string
	for {
		k, v, ok := o.Next()
		if !ok {
			break
		}
		keys, vals = append(keys, string(k)), append(vals, string(v))
	}
	if o.Bad() || strings.Join(keys, "|") != `a|b\"c|d` || strings.Join(vals, "|") != `1|{"x":[1,2]}|"s"` {
		t.Errorf("got keys %q vals %q bad %v", keys, vals, o.Bad())
	}
	bad := ObjectAt([]byte(`{"a":1,"b"}`))
	for _, _, ok := bad.Next(); ok; _, _, ok = bad.Next() {
	}
	if !bad.Bad() {
		t.Error("a malformed object iterated cleanly")
	}
}

// FuzzJSONScan holds the scanner to encoding/json: the same verdict on
// validity for valid UTF-8 input, and the same decoded strings.
func FuzzJSONScan(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x\"y",{"b":null}]}`, `"\ud83d\ude00"`, `[1,2`, `{"type":"user"}`, `-0.5e+3`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// The scanner does not reject raw control characters inside
		// strings (see line_scan.go): map whitespace controls to spaces,
		// which are valid wherever they are, and leave inputs with other
		// controls to the no-panic check.
		b = bytes.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return ' '
			}
			return r
		}, b)
		controls := bytes.ContainsFunc(b, func(r rune) bool { return r < 0x20 })
		got := valid(b)
		if controls {
			return
		}
		if utf8.Valid(b) {
			if want := json.Valid(b); got != want {
				t.Fatalf("valid(%q) = %v; encoding/json says %v", b, got, want)
			}
		}
		if !got || !utf8.Valid(b) {
			return
		}
		raw := b[WS(b, 0):SkipValue(b, 0)]
		if IsString(raw) {
			var want string
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			if s, ok := String(raw); !ok || s != want {
				t.Fatalf("String(%s) = %q; want %q", raw, s, want)
			}
			for _, max := range []int{0, 3, len(want) / 2} {
				if p, full, ok := StringPrefix(raw, max); !ok || full != len(want) || !strings.HasPrefix(want, p) {
					t.Fatalf("StringPrefix(%s, %d) = %q, %d, %v; want a prefix of %q and %d", raw, max, p, full, ok, want, len(want))
				}
			}
		}
	})
}

func TestMemberKeyIsObject(t *testing.T) {
	raw := []byte(`{"a":1,"b\u0022":{"c":"x"},"a":2}`)
	if got := string(Member(raw, "a")); got != "2" {
		t.Errorf("Member a = %s; want the last duplicate, 2", got)
	}
	if got := string(Member(Member(raw, `b\u0022`), "c")); got != `"x"` {
		t.Errorf("nested Member = %s; want \"x\"", got)
	}
	if Member([]byte(`[1]`), "a") != nil {
		t.Error("Member of an array: want nil")
	}
	if k, ok := Key([]byte(`b\u0022`)); !ok || k != `b"` {
		t.Errorf("Key = %q, %v; want b\"", k, ok)
	}
	if !IsObject([]byte(" \n{}")) || IsObject([]byte(`"{"`)) {
		t.Error("IsObject: want true only for an object")
	}
}

func TestArrayNextMembers(t *testing.T) {
	arr := ArrayAt([]byte(` [ {"a":1,"b":"x\"y"} , 2, {"c":[1,{"d":2}]}, {} ] `))
	var got []string
	for {
		var members []string
		object, ok := arr.NextMembers(func(k, v []byte) { members = append(members, string(k)+"="+string(v)) })
		if !ok {
			break
		}
		got = append(got, fmt.Sprintf("%v%v", object, members))
	}
	if want := `true[a=1 b="x\"y"] false[] true[c=[1,{"d":2}]] true[]`; arr.Bad() || strings.Join(got, " ") != want {
		t.Fatalf("got %q (bad %v); want %q", strings.Join(got, " "), arr.Bad(), want)
	}
	for _, bad := range []string{`[{"a":}]`, `[{"a":1} {"b":2}]`, `[1,`, `[{"a":1}`} {
		arr := ArrayAt([]byte(bad))
		for _, ok := arr.NextMembers(func(k, v []byte) {}); ok; _, ok = arr.NextMembers(func(k, v []byte) {}) {
		}
		if !arr.Bad() {
			t.Errorf("%s iterated cleanly; want bad", bad)
		}
	}
}
