package conv

import (
	"testing"
	"time"
)

func TestAttentionOf(t *testing.T) {
	tests := []struct {
		name    string
		state   State
		pending bool
		seen    bool
		want    Attention
	}{
		{"a dialog waits", StateQuestion, true, false, AttentionBlocked},
		{"a seen dialog still blocks", StateQuestion, true, true, AttentionBlocked},
		{"question without a structured dialog", StateQuestion, false, false, AttentionBlocked},
		{"turn ended", StateNeedsInput, false, false, AttentionYourTurn},
		{"turn ended and read since", StateNeedsInput, false, true, AttentionSeen},
		{"working", StateWorking, false, true, AttentionWorking},
		{"nothing yet", StateIdle, false, false, AttentionIdle},
		{"ended outranks a stale pending flag", StateEnded, true, false, AttentionEnded},
		{"unknown state", State("weird"), false, false, AttentionIdle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AttentionOf(tt.state, tt.pending, tt.seen); got != tt.want {
				t.Fatalf("AttentionOf(%s, %v, %v): got %s; want %s", tt.state, tt.pending, tt.seen, got, tt.want)
			}
		})
	}
	order := []Attention{AttentionBlocked, AttentionYourTurn, AttentionWorking, AttentionSeen, AttentionIdle, AttentionEnded}
	for i := 1; i < len(order); i++ {
		if order[i-1].Rank() >= order[i].Rank() {
			t.Errorf("rank: %s (%d) should come before %s (%d)", order[i-1], order[i-1].Rank(), order[i], order[i].Rank())
		}
	}
}

func TestSeenSince(t *testing.T) {
	t0 := time.Date(2026, 7, 8, 9, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { v := t0.Add(d); return &v }
	tests := []struct {
		name           string
		seen, activity *time.Time
		want           bool
	}{
		{"never seen", nil, at(0), false},
		{"seen after the last activity", at(time.Second), at(0), true},
		{"seen at the last activity", at(0), at(0), true},
		{"something new since", at(0), at(time.Second), false},
		{"seen, no activity yet", at(0), nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SeenSince(tt.seen, tt.activity); got != tt.want {
				t.Fatalf("got %v; want %v", got, tt.want)
			}
		})
	}
}
