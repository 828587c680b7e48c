package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"lab/internal/conv"
	"lab/internal/push"
	"lab/internal/push/pushtest"
)

// TestServePushesWhenARunBlocks drives Web Push end to end: a device
// subscribes through the API at a stand-in push service, the real CLI asks
// a question, and the push that arrives decrypts with the device's keys to
// a payload that opens the run; answering it ends the turn, which reaches
// only the device that asked for turn ends.
func TestServePushesWhenARunBlocks(t *testing.T) {
	lab := startLab(t)
	svc := pushtest.New(t)
	phone, desk := svc.Subscribe(t), svc.Subscribe(t)

	var key struct {
		PublicKey string `json:"public_key"`
	}
	if code := lab.call("GET", "/api/v1/push/key", nil, &key); code != 200 || key.PublicKey == "" {
		t.Fatalf("push key: %d", code)
	}
	var k push.Keys
	b, err := os.ReadFile(filepath.Join(lab.state, push.KeysFile))
	if err != nil {
		t.Fatal(err)
	}
	if json.Unmarshal(b, &k); k.Public != key.PublicKey {
		t.Fatalf("served key %s is not the one kept in the state dir (%s)", key.PublicKey, k.Public)
	}
	if info, _ := os.Stat(filepath.Join(lab.state, push.KeysFile)); info.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %o; want 600", info.Mode().Perm())
	}

	lab.subscribeDevice("phone", phone, false)
	lab.subscribeDevice("desk", desk, true)

	var run conv.Run
	if code := lab.call("POST", "/api/v1/runs", conv.StartRequest{Cwd: t.TempDir(), Prompt: "lab:single pick one"}, &run); code != 201 {
		t.Fatalf("start: %d\n%s", code, lab.log)
	}
	got := map[string]push.Payload{}
	for len(got) < 2 {
		p := svc.Next(t, 90*time.Second)
		if p.Err != nil {
			t.Fatalf("push service: %v", p.Err)
		}
		var pl push.Payload
		if err := json.Unmarshal(p.Plaintext, &pl); err != nil {
			t.Fatal(err)
		}
		got[svc.Server.URL+p.Path] = pl
	}
	for who, pl := range got {
		if pl.Reason != push.ReasonBlocked || pl.RunID != run.ID || pl.URL != "/runs/"+run.ID || pl.Quiet {
			t.Fatalf("%s got %+v; want a blocked push that opens the run", who, pl)
		}
	}

	p := lab.waitPage(run.ID, "the pending question", func(p conv.Page) bool { return p.PendingDialog != nil })
	ans := conv.Answer{ToolID: p.PendingDialog.ToolID, Answers: []conv.QuestionAnswer{{Chosen: []int{0}}}}
	if code := lab.call("POST", "/api/v1/runs/"+run.ID+"/answer", ans, nil); code != 204 {
		t.Fatalf("answer: %d\n%s", code, lab.log)
	}
	turn := svc.Next(t, 90*time.Second)
	var pl push.Payload
	json.Unmarshal(turn.Plaintext, &pl)
	if svc.Server.URL+turn.Path != desk.Endpoint || pl.Reason != push.ReasonTurnEnd || !pl.Quiet {
		t.Fatalf("after the answer: %s got %+v; want only the desk told, quietly, that the turn ended", turn.Path, pl)
	}
}
