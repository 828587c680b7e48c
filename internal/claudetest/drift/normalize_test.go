package drift

import (
	"strings"
	"testing"
)

func TestTextNormalisesVolatileParts(t *testing.T) {
	n := NewNormalizer("2.1.332")
	got := n.Text(`a 6aba3764-e802-4b35-bf46-54da315cecdb b toolu_010cRj7D0000000000000002 at 2026-11-30T00:29:35.232Z on 2026-11-30 ` +
		`v2.1.332 hash 56ec25d5b8f4477781212ac8fce6699a4181e78048e4d9d9803baf6682463a26 /h/.claude/plans/lab-plan-giggly-dawn.md ` +
		`again 6aba3764-e802-4b35-bf46-54da315cecdb then 0db7cd89-75d4-4669-aa06-7b36eba66e4b`)
	want := `a <uuid-1> b <toolu-1> at <time> on <date> v<version> hash <hash> /h/.claude/plans/<slug>.md again <uuid-1> then <uuid-2>`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// Two captures of the same conversation differ in ids, times, durations
// and how often bookkeeping lines were written; normalised, they agree.
func TestJSONLinesTwoCapturesAgree(t *testing.T) {
	a := strings.Join([]string{
		`{"type":"mode","mode":"normal","sessionId":"11111111-1111-4111-8111-111111111111"}`,
		`{"type":"user","uuid":"22222222-2222-4222-8222-222222222222","parentUuid":null,"timestamp":"2026-11-30T00:00:01.000Z","message":{"role":"user","content":"hi"}}`,
		`{"type":"mode","mode":"normal","sessionId":"11111111-1111-4111-8111-111111111111"}`,
		`{"type":"assistant","uuid":"33333333-3333-4333-8333-333333333333","parentUuid":"22222222-2222-4222-8222-222222222222","message":{"id":"msg_01AAAAAAAA","content":[{"type":"text","text":"hello"}]},"durationMs":812}`,
		`{"type":"system","subtype":"turn_duration","uuid":"44444444-4444-4444-8444-444444444444","durationMs":1200,"usage":{"input_tokens":14177}}`,
	}, "\n")
	b := strings.Join([]string{
		`{"type":"user","uuid":"a2222222-2222-4222-8222-222222222222","parentUuid":null,"timestamp":"2026-12-01T09:00:01.500Z","message":{"role":"user","content":"hi"}}`,
		`{"type":"mode","mode":"normal","sessionId":"b1111111-1111-4111-8111-111111111111"}`,
		`{"parentUuid":"a2222222-2222-4222-8222-222222222222","type":"assistant","uuid":"a3333333-3333-4333-8333-333333333333","message":{"content":[{"type":"text","text":"hello"}],"id":"msg_01BBBBBBBB"},"durationMs":95}`,
		`{"type":"system","subtype":"turn_duration","uuid":"a4444444-4444-4444-8444-444444444444","durationMs":300,"usage":{"input_tokens":14180}}`,
	}, "\n")
	na, nb := NewNormalizer("2.1.328").JSONLines([]byte(a)), NewNormalizer("2.1.332").JSONLines([]byte(b))
	if string(na) != string(nb) {
		t.Fatalf("normalised captures differ:\n%s\n----\n%s", na, nb)
	}
	s := string(na)
	for _, want := range []string{
		"\"parentUuid\": \"<uuid-1>\"\n", // the assistant line still names the user line
		"\"durationMs\": <number>\n",
		"# bookkeeping lines, by type, each once\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("normalised output lacks %q:\n%s", want, s)
		}
	}
	if strings.Count(s, `"type": "mode"`) != 1 {
		t.Errorf("the repeated mode line is not written once:\n%s", s)
	}
	if strings.Index(s, `"type": "mode"`) < strings.Index(s, `"type": "system"`) {
		t.Errorf("bookkeeping is not after the conversation:\n%s", s)
	}
}

// A changed field is one changed line of the normalised output.
func TestJSONLinesShowsAnAddedField(t *testing.T) {
	a := NewNormalizer("").JSONLines([]byte(`{"type":"user","uuid":"u1","message":{"content":"[Request interrupted by user]"}}`))
	b := NewNormalizer("").JSONLines([]byte(`{"type":"user","uuid":"u1","rowSource":"harness","message":{"content":"[Request interrupted by user]"}}`))
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	if len(bl) != len(al)+1 || !strings.Contains(string(b), "\"rowSource\": \"harness\"\n") {
		t.Fatalf("got\n%s\nfrom\n%s\nwant one added line", b, a)
	}
}

func TestJSONLinesDigestsLongText(t *testing.T) {
	long := strings.Repeat("You are an agent. ", 40)
	got := string(NewNormalizer("").JSONLines([]byte(`{"type":"attachment","uuid":"u","systemPrompt":["` + long + `"]}`)))
	if strings.Contains(got, "You are an agent") || !strings.Contains(got, "<1 lines of text, sha256 ") {
		t.Fatalf("long text not digested:\n%s", got)
	}
	other := string(NewNormalizer("").JSONLines([]byte(`{"type":"attachment","uuid":"u","systemPrompt":["` + long + `!"]}`)))
	if other == got {
		t.Fatal("a changed long text digests the same")
	}
}

func TestVolatileKey(t *testing.T) {
	for key, want := range map[string]bool{
		"durationMs": true, "updatedAt": true, "input_tokens": true, "pid": true, "timestamp": true, "totalCostUSD": true,
		"items": false, "format": false, "hookCount": false, "keep": false, "apiBlockIndex": false,
	} {
		if got := volatileKey(key); got != want {
			t.Errorf("volatileKey(%q) = %v; want %v", key, got, want)
		}
	}
}

func TestTextSlowStream(t *testing.T) {
	a := NewNormalizer("").Text("Streaming slowly: word1 word2 word3 \nword4 word5 ")
	b := NewNormalizer("").Text("Streaming slowly: word1 word2 ")
	if a != b || a != "Streaming slowly: word1 … " {
		t.Fatalf("got %q and %q", a, b)
	}
}

func TestJSONLinesLeavesOutRequestBlobs(t *testing.T) {
	with := NewNormalizer("").JSONLines([]byte(`{"type":"user","uuid":"u","message":{"content":"hi"}}
{"type":"api-request-blob","hash":"h","message":{"role":"user","content":"hi"}}`))
	without := NewNormalizer("").JSONLines([]byte(`{"type":"user","uuid":"u","message":{"content":"hi"}}`))
	if string(with) != string(without) {
		t.Fatalf("a request blob shows:\n%s", with)
	}
	if got := NewNormalizer("").Text("c5db19d13dc7818c@v1"); got != "<backup>@v1" {
		t.Fatalf("backup name: %q", got)
	}
}

func TestJSONLinesKeepsNonJSON(t *testing.T) {
	got := string(NewNormalizer("").JSONLines([]byte("not json at 2026-11-30T00:00:00Z\n")))
	if got != "not json at <time>\n" {
		t.Fatalf("got %q", got)
	}
}

func TestPaneNormalisesBannerAndBlankRuns(t *testing.T) {
	frame1 := "\n  ▐▛███▜▌    Claude Code v2.1.328\n ▝▜█████▛▘   Opus 5.5 · API Usage Billing\n   ▘▘ ▝▝     /tmp/lab/work\n\n❯ hi   \n"
	frame2 := "\n ▂ ▂       Claude Code v2.1.332\n ▝▜█████▛▘   Opus 5.5 · API Usage Billing\n · ·  ▘▘ ▝▝      /tmp/lab/work\n\n❯ hi\n"
	a, b := NewNormalizer("2.1.328").Pane([]byte(frame1)), NewNormalizer("2.1.332").Pane([]byte(frame2))
	if string(a) != string(b) {
		t.Fatalf("two banner frames differ:\n%s\n----\n%s", a, b)
	}
	on := "● I need to create a file.\n\n● Creating a probe file\n  ⎿  $ touch x\n"
	off := "● I need to create a file.\n\n  Creating a probe file\n  ⎿  $ touch x\n"
	if a, b := NewNormalizer("").Pane([]byte(on)), NewNormalizer("").Pane([]byte(off)); string(a) != string(b) || !strings.HasPrefix(string(a), "● I need") {
		t.Fatalf("the blinking tool dot:\n%s\n----\n%s", a, b)
	}
	top := "● Pick one.\n────\n ☐ Color\n"
	bottom := "● Pick one.\n" + strings.Repeat("\n", 16) + "────\n ☐ Color\n"
	nt, nb := string(NewNormalizer("").Pane([]byte(top))), string(NewNormalizer("").Pane([]byte(bottom)))
	if !strings.Contains(nb, "\n<16 blank lines>\n") || strings.Contains(nt, "blank lines") {
		t.Fatalf("blank runs:\n%s\n----\n%s", nt, nb)
	}
}
