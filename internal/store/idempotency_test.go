package store

import (
	"context"
	"testing"
	"time"
)

func TestIdempotencyKeysRememberedForADay(t *testing.T) {
	db, clk := openAuthDB(t)
	ctx := context.Background()
	const day = 24 * time.Hour
	if _, ok, err := db.Remembered(ctx, "k1", day); ok || err != nil {
		t.Fatalf("fresh database: %v, %v; want nothing remembered", ok, err)
	}
	want := Answered{Request: "POST /api/v1/runs/r1/reply", Status: 204}
	if err := db.Remember(ctx, "k1", want, day); err != nil {
		t.Fatal(err)
	}
	if err := db.Remember(ctx, "k2", Answered{Request: "POST /api/v1/runs/r1/answer", Status: 409, Body: []byte(`{"error":"gone"}`)}, day); err != nil {
		t.Fatal(err)
	}
	got, ok, err := db.Remembered(ctx, "k1", day)
	if err != nil || !ok || got.Request != want.Request || got.Status != 204 || len(got.Body) != 0 || !got.At.Equal(clk.Now()) {
		t.Fatalf("k1: %+v, %v, %v; want %+v at %v", got, ok, err, want, clk.Now())
	}
	if got, _, _ := db.Remembered(ctx, "k2", day); got.Status != 409 || string(got.Body) != `{"error":"gone"}` {
		t.Fatalf("k2: %+v; want the 409 and its body", got)
	}
	// A day later the keys are forgotten: expired ones are not served,
	// and the next Remember deletes them.
	clk.Advance(day + time.Second)
	if _, ok, _ := db.Remembered(ctx, "k1", day); ok {
		t.Fatal("k1 served after a day; want it expired")
	}
	if err := db.Remember(ctx, "k3", want, day); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.SQL().QueryRow(`SELECT count(*) FROM idempotency`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d rows, %v; want only k3 kept", n, err)
	}
}
