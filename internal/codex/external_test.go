package codex

import "testing"

func TestInteractive(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"/usr/lib/codex/bin/codex"}, true},
		{[]string{"codex", "fix the bug"}, true},
		{[]string{"codex", "-c", "model=x", "--sandbox", "workspace-write", "--", "exec the plan"}, true},
		{[]string{"codex", "-m", "exec", "resume", "--last"}, true}, // "exec" is -m's value
		{[]string{"codex", "--model=gpt", "fork"}, true},
		{[]string{"codex", "exec", "do it"}, false},
		{[]string{"codex", "-c", "a=b", "app-server"}, false},
		{[]string{"codex", "mcp-server"}, false},
		{[]string{"codex", "login"}, false},
		{[]string{"codex-linux-sandbox", "--", "ls"}, false},
		{[]string{"node", "/usr/lib/node_modules/@openai/codex/bin/codex.js"}, false},
		{nil, false},
	} {
		if got := Interactive(c.args); got != c.want {
			t.Errorf("Interactive(%q) = %v; want %v", c.args, got, c.want)
		}
	}
}
