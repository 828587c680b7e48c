package tmux

import (
	"os"
	"testing"
)

func TestValidPaneIDAndDescent(t *testing.T) {
	for p, want := range map[string]bool{"%0": true, "%12": true, "%": false, "0": false, "%1;kill": false, "=lab-x:": false} {
		if ValidPaneID(p) != want {
			t.Errorf("ValidPaneID(%q) = %v; want %v", p, !want, want)
		}
	}
	if !DescendsFrom(os.Getpid(), os.Getppid()) || !DescendsFrom(os.Getpid(), os.Getpid()) || !DescendsFrom(os.Getpid(), 1) {
		t.Fatal("the test process does not descend from its parent, itself and init")
	}
	if DescendsFrom(os.Getppid(), os.Getpid()) {
		t.Fatal("a parent descends from its child")
	}
}
