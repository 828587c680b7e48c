package store

import (
	"context"
	"testing"
	"time"

	"lab/internal/conv"
)

func TestPushDevicesLifecycle(t *testing.T) {
	ctx := context.Background()
	db := openRunsDB(t)
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return t0 }

	phone, err := db.SavePushDevice(ctx, PushDevice{Name: "phone", Endpoint: "https://push.example/a", P256dh: "pk1", Auth: "au1", PushOptions: DefaultPushOptions})
	if err != nil {
		t.Fatal(err)
	}
	if phone.ID == "" || !phone.Blocked || phone.TurnEnd || phone.IncludeContent || !phone.CreatedAt.Equal(t0) || phone.LastPushAt != nil {
		t.Fatalf("new device: got %+v", phone)
	}

	// The same browser subscribing again keeps its id and options but
	// takes the new name and keys.
	if _, err := db.UpdatePushDevice(ctx, phone.ID, "", PushOptions{Blocked: false, TurnEnd: true, IncludeContent: true}); err != nil {
		t.Fatal(err)
	}
	again, err := db.SavePushDevice(ctx, PushDevice{Name: "phone 2", Endpoint: "https://push.example/a", P256dh: "pk2", Auth: "au2", PushOptions: DefaultPushOptions})
	if err != nil {
		t.Fatal(err)
	}
	want := PushOptions{Blocked: false, TurnEnd: true, IncludeContent: true}
	if again.ID != phone.ID || again.Name != "phone 2" || again.P256dh != "pk2" || again.Auth != "au2" || again.PushOptions != want {
		t.Fatalf("resubscribe: got %+v; want id %s, new name and keys, options %+v", again, phone.ID, want)
	}

	db.Now = func() time.Time { return t0.Add(time.Minute) }
	laptop, err := db.SavePushDevice(ctx, PushDevice{Name: "laptop", Endpoint: "https://push.example/b", P256dh: "pk", Auth: "au", PushOptions: DefaultPushOptions})
	if err != nil {
		t.Fatal(err)
	}
	all, err := db.PushDevices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].ID != phone.ID || all[1].ID != laptop.ID {
		t.Fatalf("list: got %+v; want phone then laptop", all)
	}

	at := t0.Add(2 * time.Minute)
	if err := db.NotePushResult(ctx, laptop.ID, at, "push service said 500"); err != nil {
		t.Fatal(err)
	}
	got, err := db.PushDevice(ctx, laptop.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.LastPushAt == nil || !got.LastPushAt.Equal(at) || got.LastError != "push service said 500" {
		t.Fatalf("after a failed push: got %+v", got)
	}

	renamed, err := db.UpdatePushDevice(ctx, laptop.ID, "desk", PushOptions{Blocked: true})
	if err != nil {
		t.Fatal(err)
	}
	if renamed.Name != "desk" || renamed.PushOptions != (PushOptions{Blocked: true}) {
		t.Fatalf("rename: got %+v", renamed)
	}

	if err := db.DeletePushDevice(ctx, phone.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.PushDevice(ctx, phone.ID); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("deleted device: got %v; want not found", err)
	}
	if err := db.DeletePushDevice(ctx, phone.ID); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("second delete: got %v; want not found", err)
	}
	if _, err := db.UpdatePushDevice(ctx, "dev_nope", "x", PushOptions{}); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("update unknown: got %v; want not found", err)
	}
	if err := db.NotePushResult(ctx, "dev_nope", at, ""); err != nil {
		t.Fatalf("note on a removed device: %v", err)
	}
}
