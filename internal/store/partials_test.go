package store

import (
	"context"
	"testing"
	"time"

	"lab/internal/conv"
)

func TestPartialsKeptByTranscript(t *testing.T) {
	db, _ := openAuthDB(t)
	ctx := context.Background()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, p := range []struct {
		path string
		p    conv.Partial
	}{
		{"/r/a.jsonl", conv.Partial{AfterSeq: 5, Text: "later", Time: at}},
		{"/r/a.jsonl", conv.Partial{AfterSeq: 1, Text: "first try", Time: at}},
		{"/r/a.jsonl", conv.Partial{AfterSeq: 1, Text: "first", Time: at}}, // the same place again: replaced
		{"/r/b.jsonl", conv.Partial{AfterSeq: 1, Text: "other", Time: at}},
	} {
		if err := db.KeepPartial(ctx, p.path, p.p); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.Partials(ctx, "/r/a.jsonl")
	if err != nil || len(got) != 2 || got[0] != (conv.Partial{AfterSeq: 1, Text: "first", Time: at}) || got[1].AfterSeq != 5 {
		t.Fatalf("partials of a: %+v, %v; want first after 1, later after 5", got, err)
	}
	if none, err := db.Partials(ctx, "/r/c.jsonl"); err != nil || len(none) != 0 {
		t.Fatalf("partials of c: %+v, %v; want none", none, err)
	}
}
