package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"lab/internal/clikit"
)

func writeRegistry(t *testing.T, home string, name, body string) {
	t.Helper()
	dir := RegistryDir(home)
	os.MkdirAll(dir, 0o700)
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestRegistryKeepsOnlyLiveOwners(t *testing.T) {
	home := t.TempDir()
	self := os.Getpid()
	start, ok := clikit.ProcStart(self)
	if !ok {
		t.Fatal("cannot read /proc/self/stat")
	}
	entry := `{"pid":%d,"sessionId":"%s","cwd":"/w","version":"2.1.328","kind":"interactive","tmux":"lab-r1:@0.%%0","status":"waiting","waitingFor":"permission prompt","procStart":"%s","updatedAt":1795997573722}`
	writeRegistry(t, home, fmt.Sprintf("%d.json", self), fmt.Sprintf(entry, self, "live", start))
	// Our pid parent is alive but started at another time: a reused pid.
	ppid := os.Getppid()
	writeRegistry(t, home, fmt.Sprintf("%d.json", ppid), fmt.Sprintf(entry, ppid, "reused", "1"))
	writeRegistry(t, home, "999999999.json", fmt.Sprintf(entry, 999999999, "dead", ""))
	writeRegistry(t, home, "123.abc.key", "secret")
	writeRegistry(t, home, "bad.json", "{")
	got, err := ReadRegistry(home)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].SessionID != "live" || got[0].Status != "waiting" || got[0].WaitingFor != "permission prompt" || got[0].Tmux != "lab-r1:@0.%0" {
		t.Fatalf("got %+v; want only the live entry with its fields", got)
	}
	if got[0].Updated().UnixMilli() != 1795997573722 {
		t.Fatalf("got updated %v; want the entry's updatedAt", got[0].Updated())
	}
	if _, ok, err := ReadRegistryEntry(home, 42); ok || err != nil {
		t.Fatalf("got %v, %v for a missing entry; want false, nil", ok, err)
	}
	if e, err := ReadRegistry(t.TempDir()); err != nil || e != nil {
		t.Fatalf("got %v, %v for a home without a registry; want nothing", e, err)
	}
}
