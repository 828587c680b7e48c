package store

import (
	"context"
	"strings"
	"testing"

	"lab/internal/conv"
)

func TestPeersAddListRemove(t *testing.T) {
	db, _ := openAuthDB(t)
	ctx := context.Background()
	if got, err := db.Peers(ctx); err != nil || len(got) != 0 {
		t.Fatalf("fresh database: %v, %v; want no peers", got, err)
	}
	for _, bad := range []Peer{
		{Name: "Build", URL: "https://b", Token: "lab_x"},
		{Name: "a~b", URL: "https://b", Token: "lab_x"},
		{Name: "-x", URL: "https://b", Token: "lab_x"},
		{Name: strings.Repeat("a", MaxPeerName+1), URL: "https://b", Token: "lab_x"},
		{Name: "", URL: "https://b", Token: "lab_x"},
		{Name: "ok", URL: " ", Token: "lab_x"},
		{Name: "ok", URL: "https://b", Token: ""},
	} {
		_, err := db.AddPeer(ctx, bad)
		wantKind(t, err, conv.EInvalid)
	}
	p, err := db.AddPeer(ctx, Peer{Name: "build", URL: "https://build.example:8443", Token: "lab_secret", AllowHTTP: false})
	if err != nil {
		t.Fatal(err)
	}
	if p.CreatedAt.IsZero() {
		t.Fatalf("added %+v; want its creation time", p)
	}
	if _, err := db.AddPeer(ctx, Peer{Name: "build", URL: "https://other", Token: "lab_2"}); conv.KindOf(err) != conv.EConflict {
		t.Fatalf("same name again: %v; want a conflict", err)
	}
	if _, err := db.AddPeer(ctx, Peer{Name: "a-box", URL: "http://10.0.0.2:8080", Token: "lab_3", AllowHTTP: true}); err != nil {
		t.Fatal(err)
	}
	got, err := db.Peers(ctx)
	if err != nil || len(got) != 2 || got[0].Name != "a-box" || got[1].Name != "build" {
		t.Fatalf("peers %+v, %v; want a-box then build", got, err)
	}
	if got[0].Token != "lab_3" || !got[0].AllowHTTP || got[1].URL != "https://build.example:8443" || got[1].Token != "lab_secret" {
		t.Fatalf("peers %+v; want what was added", got)
	}
	if _, err := db.RemovePeer(ctx, "build"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RemovePeer(ctx, "build"); conv.KindOf(err) != conv.ENotFound {
		t.Fatalf("remove twice: %v; want not found", err)
	}
	if got, _ := db.Peers(ctx); len(got) != 1 {
		t.Fatalf("after remove: %+v; want one peer", got)
	}
}

func TestScopedTokens(t *testing.T) {
	db, _ := openAuthDB(t)
	ctx := context.Background()
	if _, _, err := db.CreateScopedAPIToken(ctx, "x", "admin"); conv.KindOf(err) != conv.EInvalid {
		t.Fatalf("unknown scope: %v; want invalid", err)
	}
	full, _, err := db.CreateAPIToken(ctx, "script")
	if err != nil {
		t.Fatal(err)
	}
	relay, tok, err := db.CreateScopedAPIToken(ctx, "hub", ScopeRelay)
	if err != nil || tok.Scope != ScopeRelay {
		t.Fatalf("relay token: %+v, %v", tok, err)
	}
	if got, err := db.CheckAPIToken(ctx, full); err != nil || got.Scope != "" {
		t.Fatalf("full token checks as %+v, %v; want no scope", got, err)
	}
	if got, err := db.CheckAPIToken(ctx, relay); err != nil || got.Scope != ScopeRelay || got.Name != "hub" {
		t.Fatalf("relay token checks as %+v, %v; want scope relay", got, err)
	}
	list, _ := db.APITokens(ctx)
	if len(list) != 2 || list[1].Scope != ScopeRelay {
		t.Fatalf("tokens %+v; want the relay one listed with its scope", list)
	}
	if _, err := db.RevokeAPIToken(ctx, "hub"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CheckAPIToken(ctx, relay); conv.KindOf(err) != conv.EUnauthorized {
		t.Fatalf("revoked relay token: %v; want unauthorized", err)
	}
}
