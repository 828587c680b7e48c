package push

import (
	"testing"
	"time"
)

func TestPresence(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	p := NewPresence(30*time.Second, func() time.Time { return now })

	p.Report("phone", "r1", true)
	p.Report("laptop", "", true)
	tests := []struct {
		name   string
		device string
		run    string
		want   bool
	}{
		{"the run the page shows", "phone", "r1", true},
		{"another run", "phone", "r2", false},
		{"a device on the runs list", "laptop", "r1", false},
		{"an unknown device", "tablet", "r1", false},
		{"no run", "phone", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.Looking(tt.device, tt.run); got != tt.want {
				t.Fatalf("Looking(%s, %s): got %v; want %v", tt.device, tt.run, got, tt.want)
			}
		})
	}

	now = now.Add(29 * time.Second)
	if !p.Looking("phone", "r1") {
		t.Fatal("within the TTL: got not looking; want looking")
	}
	now = now.Add(time.Second)
	if p.Looking("phone", "r1") {
		t.Fatal("after the TTL: got looking; want a report to have expired")
	}

	p.Report("phone", "r1", true)
	p.Report("phone", "r1", false)
	if p.Looking("phone", "r1") {
		t.Fatal("after the page went hidden: got looking; want not")
	}
	p.Report("phone", "r1", true)
	p.Report("phone", "r2", true)
	if p.Looking("phone", "r1") || !p.Looking("phone", "r2") {
		t.Fatal("after moving to r2: want only r2 looked at")
	}
}
