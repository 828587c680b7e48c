package conv

import (
	"reflect"
	"testing"
)

func TestFileRefsRoundTrip(t *testing.T) {
	paths := []string{"/s/runs/r1/uploads/0123456789abcdef-notes.txt", "/s/runs/r1/uploads/fedcba9876543210-main.py"}
	cases := []struct{ text, want string }{
		{"read these", "read these"},
		{"two lines\nof text\n", "two lines\nof text"},
		{"", ""},
	}
	for _, c := range cases {
		full := WithFileRefs(c.text, paths)
		text, files := SplitFileRefs(full)
		want := []AttachedFile{{Kind: AttachFile, Name: "notes.txt"}, {Kind: AttachFile, Name: "main.py"}}
		if text != c.want || !reflect.DeepEqual(files, want) {
			t.Errorf("SplitFileRefs(WithFileRefs(%q)) = %q, %+v; want %q, %+v", c.text, text, files, c.want, want)
		}
	}
	// Only trailing lines that name an absolute path are lab's.
	for _, s := range []string{"see [Attached file: /x] above\nthanks", "[Attached file: relative.txt]", "no refs"} {
		if text, files := SplitFileRefs(s); text != s || files != nil {
			t.Errorf("SplitFileRefs(%q) = %q, %v; want it unchanged", s, text, files)
		}
	}
}

func TestUploadName(t *testing.T) {
	for path, want := range map[string]string{
		"/a/0123456789abcdef-shot.png": "shot.png",
		"/a/0123456789ABCDEF-shot.png": "0123456789ABCDEF-shot.png", // not lab's id shape
		"/a/short-shot.png":            "short-shot.png",
		"plain.txt":                    "plain.txt",
	} {
		if got := UploadName(path); got != want {
			t.Errorf("UploadName(%q) = %q; want %q", path, got, want)
		}
	}
}

func TestUsageFullAndCost(t *testing.T) {
	u := &Usage{ContextTokens: 850_000, ContextWindow: 1_000_000, InputTokens: 2_000_000, OutputTokens: 100_000, CacheReadTokens: 1_000_000, CacheWriteTokens: 400_000}
	if f := u.Full(); f != 0.85 {
		t.Errorf("Full = %v; want 0.85", f)
	}
	if f := (&Usage{ContextTokens: 5}).Full(); f != 0 {
		t.Errorf("Full without a window = %v; want 0", f)
	}
	p := Price{Input: 4, Output: 20, CacheRead: 0.2, CacheWrite: 5}
	// 2M*4 + 0.1M*20 + 1M*0.2 + 0.4M*5 = 8 + 2 + 0.2 + 2 dollars.
	if c := p.Cost(u); c < 12.199 || c > 12.201 {
		t.Errorf("Cost = %v; want 12.2", c)
	}
}
