package conv

import "testing"

func TestAttentionOf(t *testing.T) {
	tests := []struct {
		name    string
		state   State
		pending bool
		want    Attention
	}{
		{"a dialog waits", StateQuestion, true, AttentionBlocked},
		{"question without a structured dialog", StateQuestion, false, AttentionBlocked},
		{"turn ended", StateNeedsInput, false, AttentionYourTurn},
		{"working", StateWorking, false, AttentionWorking},
		{"nothing yet", StateIdle, false, AttentionIdle},
		{"ended outranks a stale pending flag", StateEnded, true, AttentionEnded},
		{"unknown state", State("weird"), false, AttentionIdle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AttentionOf(tt.state, tt.pending); got != tt.want {
				t.Fatalf("AttentionOf(%s, %v): got %s; want %s", tt.state, tt.pending, got, tt.want)
			}
		})
	}
	order := []Attention{AttentionBlocked, AttentionYourTurn, AttentionWorking, AttentionIdle, AttentionEnded}
	for i := 1; i < len(order); i++ {
		if order[i-1].Rank() >= order[i].Rank() {
			t.Errorf("rank: %s (%d) should come before %s (%d)", order[i-1], order[i-1].Rank(), order[i], order[i].Rank())
		}
	}
}
