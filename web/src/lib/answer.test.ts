import { describe, expect, it, test } from "vitest";
import {
  approvalText,
  complete,
  describePick,
  emptyPick,
  otherOnly,
  planApprove,
  planReject,
  planRows,
  plainPlanRow,
  questionAnswer,
  selectOne,
  summarize,
  toggle,
  withOther,
} from "./answer";
import { form, plan, question } from "./testdata";

describe("question payloads", () => {
  it("single-select tap", () => {
    expect(questionAnswer(question("t1"), [selectOne(1)])).toEqual({ tool_id: "t1", answers: [{ chosen: [1] }] });
  });
  it("single-select Other free text, sent as typed", () => {
    expect(questionAnswer(question("t1"), [otherOnly("  DuckDB, please\nthanks ")])).toEqual({
      tool_id: "t1",
      answers: [{ chosen: [], other_text: "  DuckDB, please\nthanks " }],
    });
  });
  it("single-select: a later tap replaces free text", () => {
    const p = selectOne(2);
    expect(questionAnswer(question("t1"), [p]).answers).toEqual([{ chosen: [2] }]);
  });
  it("multi-select keeps toggle order", () => {
    let p = emptyPick;
    p = toggle(p, 2);
    p = toggle(p, 0);
    p = toggle(p, 1);
    p = toggle(p, 0); // untoggle
    expect(questionAnswer(question("t1", null, true), [p]).answers).toEqual([{ chosen: [2, 1] }]);
  });
  it("multi-select with Other text", () => {
    const p = withOther(toggle(toggle(emptyPick, 0), 1), "no anchovies");
    expect(questionAnswer(question("t1", null, true), [p]).answers).toEqual([{ chosen: [0, 1], other_text: "no anchovies" }]);
  });
  it("multi-select with only Other text", () => {
    expect(questionAnswer(question("t1", null, true), [withOther(emptyPick, "x")]).answers).toEqual([{ chosen: [], other_text: "x" }]);
  });
  it("blank Other text is not an answer", () => {
    expect(complete(withOther(emptyPick, "   "))).toBe(false);
    expect(() => questionAnswer(question("t1"), [withOther(emptyPick, "  ")])).toThrow(/not answered/);
  });
  it("multi-question form: one entry per question, in order", () => {
    const picks = [selectOne(1), withOther(toggle(emptyPick, 2), "extra"), otherOnly("XL")];
    expect(questionAnswer(form("f1"), picks)).toEqual({
      tool_id: "f1",
      answers: [{ chosen: [1] }, { chosen: [2], other_text: "extra" }, { chosen: [], other_text: "XL" }],
    });
  });
  it("multi-question form refuses a missing answer", () => {
    expect(() => questionAnswer(form("f1"), [selectOne(1), undefined, selectOne(0)])).toThrow(/question 2/);
  });
  it("out-of-range indexes are dropped", () => {
    expect(questionAnswer(question("t1", null, true), [{ chosen: [7, 1], other: "" }]).answers).toEqual([{ chosen: [1] }]);
  });
  it("plan dialogs are not question dialogs", () => {
    expect(() => questionAnswer(plan("p1"), [selectOne(0)])).toThrow();
  });
  it("describePick for the review step", () => {
    const q = form("f1").questions![1]!;
    expect(describePick(q, withOther(toggle(toggle(emptyPick, 1), 0), "more"))).toBe("Olives, Cheese, more");
    expect(describePick(q, undefined)).toBe("—");
  });
});

describe("plan payloads", () => {
  it("default rows of 2.1.328", () => {
    expect(planRows(plan("p1")).map((r) => r.role)).toEqual(["approve", "approve", "feedback"]);
  });
  it("approve auto and approve with review", () => {
    expect(planApprove(plan("p1"), 0)).toEqual({ tool_id: "p1", option: 0 });
    expect(planApprove(plan("p1"), 1)).toEqual({ tool_id: "p1", option: 1 });
  });
  it("reject with feedback targets the feedback row", () => {
    expect(planReject(plan("p1"), "use SQLite")).toEqual({ tool_id: "p1", option: 2, feedback: "use SQLite" });
  });
  it("older four-row picker finds the feedback row by its label", () => {
    const d = plan("p1", null, ["Yes, auto-accept edits", "Yes, manually approve edits", "No, refine with Ultraplan", "No, keep planning (tell Claude what to change)"]);
    expect(planRows(d).map((r) => r.role)).toEqual(["approve", "approve", "other", "feedback"]);
    expect(planReject(d, "x").option).toBe(3);
  });
  it("rejecting needs feedback text", () => {
    expect(() => planReject(plan("p1"), "  ")).toThrow(/what to change/);
  });
  it("no such row", () => {
    expect(() => planApprove(plan("p1"), 5)).toThrow();
  });
});

describe("summaries of answered dialogs", () => {
  it("several questions, one line each, free text as typed", () => {
    const d = form("f1");
    const s = summarize(d, {
      dismissed: false,
      results: [
        { question: "Color?", chosen: ["Blue"] },
        { question: "Toppings?", chosen: ["Cheese", "Olives"], other_text: "no anchovies" },
        { question: "Size?", chosen: [], other_text: "XL please" },
      ],
    });
    expect(s.lines).toEqual([
      { question: "Color?", answer: "Blue", typed: false },
      { question: "Toppings?", answer: "Cheese, Olives, no anchovies", typed: false },
      { question: "Size?", answer: "XL please", typed: true },
    ]);
  });
  it("dismissed", () => {
    expect(summarize(question("t1"), { dismissed: true })).toEqual({ dismissed: true, lines: [] });
  });
  it("plan approved and rejected", () => {
    expect(summarize(plan("p1"), { dismissed: false, approved: true })).toMatchObject({ approved: true, feedback: "" });
    expect(summarize(plan("p1"), { dismissed: false, approved: false, feedback: "smaller steps" })).toMatchObject({
      approved: false,
      feedback: "smaller steps",
    });
  });
  it("null chosen from the server is treated as none", () => {
    const s = summarize(question("t1"), { dismissed: false, results: [{ question: "Which database?", chosen: null }] });
    expect(s.lines[0]!.answer).toBe("—");
  });
});

describe("plan rows in plain words", () => {
  test("2.1.328's rows get plain labels, the CLI's words kept as detail", () => {
    const rows = planRows(plan("tu_p"));
    expect(rows.map((r) => [r.role, r.plain, r.label])).toEqual([
      ["approve", "Approve, and let it carry on by itself", "Yes, and use auto mode"],
      ["approve", "Approve, and ask me before each edit", "Yes, manually approve edits"],
      ["feedback", "Ask for changes", "Tell Claude what to change"],
    ]);
  });
  test("other wordings", () => {
    expect(plainPlanRow("Yes, and auto-accept edits", "approve")).toBe("Approve, and accept its edits without asking");
    expect(plainPlanRow("Yes", "approve")).toBe("Approve");
    expect(plainPlanRow("No, refine with Ultraplan", "other")).toBe("No, refine with Ultraplan");
  });
  test("the answered plan says which approval was taken", () => {
    expect(approvalText({ dismissed: false, approved: true, approval_mode: "auto" })).toBe("approved · carries on by itself");
    expect(approvalText({ dismissed: false, approved: true, approval_mode: "manual" })).toBe("approved · asks before each edit");
    expect(approvalText({ dismissed: false, approved: true })).toBe("approved");
  });
});
