package claude

import "testing"

func TestDialogFromTool(t *testing.T) {
	q := DialogFromTool(ToolAskUserQuestion, "toolu_1", []byte(`{"questions":[{"question":"Which database?","header":"DB","multiSelect":false,"options":[{"label":"SQLite","description":"Embedded"},{"label":"PostgreSQL"}]}]}`))
	if q == nil || q.Kind != "question" || q.ToolID != "toolu_1" || len(q.Questions) != 1 ||
		q.Questions[0].Question != "Which database?" || len(q.Questions[0].Options) != 2 || !q.Answerable || q.Outcome != nil {
		t.Fatalf("question dialog: got %+v", q)
	}
	p := DialogFromTool(ToolExitPlanMode, "toolu_2", []byte(`{"plan":"# Plan\n\n1. do it","planFilePath":"/x/plan.md"}`))
	if p == nil || p.Kind != "plan" || p.Plan != "# Plan\n\n1. do it" || p.Outcome != nil {
		t.Fatalf("plan dialog: got %+v", p)
	}
	if d := DialogFromTool("Bash", "toolu_3", []byte(`{"command":"ls"}`)); d != nil {
		t.Fatalf("Bash: got %+v; want nil", d)
	}
}
