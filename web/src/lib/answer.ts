// Building conv.Answer payloads from what the operator picked, and the
// compact summaries of answered dialogs. Pure: the card components keep a
// Draft in a signal and call these.

import type { Answer, Dialog, Outcome, Question, QuestionAnswer } from "../api";

/** Pick is the operator's choice for one question. */
export interface Pick {
  /** Option indexes; for multi-select in the order they were toggled on. */
  chosen: number[];
  /** Free text for the "Other" row; "" when unused. */
  other: string;
}

export const emptyPick: Pick = { chosen: [], other: "" };

/** selectOne picks option i of a single-select question, clearing free text. */
export function selectOne(i: number): Pick {
  return { chosen: [i], other: "" };
}

/** otherOnly answers a single-select question with free text alone. */
export function otherOnly(text: string): Pick {
  return { chosen: [], other: text };
}

/** toggle flips option i of a multi-select pick, keeping toggle order. */
export function toggle(p: Pick, i: number): Pick {
  const at = p.chosen.indexOf(i);
  if (at >= 0) return { ...p, chosen: p.chosen.filter((c) => c !== i) };
  return { ...p, chosen: [...p.chosen, i] };
}

/** withOther sets the free text of a pick (multi-select keeps its options). */
export function withOther(p: Pick, text: string): Pick {
  return { ...p, other: text };
}

/** complete says whether a pick answers its question. */
export function complete(p: Pick | undefined): boolean {
  return !!p && (p.chosen.length > 0 || p.other.trim() !== "");
}

/** toQuestionAnswer converts a pick to the wire shape. */
export function toQuestionAnswer(q: Question, p: Pick): QuestionAnswer {
  const chosen = p.chosen.filter((i) => Number.isInteger(i) && i >= 0 && i < q.options.length);
  const other = p.other.trim() === "" ? "" : p.other;
  if (!q.multi_select) {
    // Single-select carries one row: a listed option or the free text.
    if (other !== "" && chosen.length === 0) return { chosen: [], other_text: other };
    return { chosen: chosen.slice(0, 1) };
  }
  const qa: QuestionAnswer = { chosen };
  if (other !== "") qa.other_text = other;
  return qa;
}

/**
 * questionAnswer builds the payload for a question dialog: one entry per
 * question, in order. It throws when a question is unanswered, so the UI
 * can never post a partial form.
 */
export function questionAnswer(d: Dialog, picks: readonly (Pick | undefined)[]): Answer {
  const qs = d.questions ?? [];
  if (d.kind !== "question" || qs.length === 0) throw new Error("not a question dialog");
  const answers = qs.map((q, i) => {
    const p = picks[i];
    if (!complete(p)) throw new Error(`question ${i + 1} is not answered`);
    return toQuestionAnswer(q, p!);
  });
  return { tool_id: d.tool_id, answers };
}

/** The approval rows of Claude Code 2.1.328's plan picker, used when the server does not list them. */
export const defaultPlanRows = ["Yes, and use auto mode", "Yes, manually approve edits", "Tell Claude what to change"];

export interface PlanRow {
  index: number;
  /** The row as the CLI words it. */
  label: string;
  /** What the row does, in plain words; the CLI's wording goes beside it as detail. */
  plain: string;
  /** approve: approves the plan; feedback: rejects it with typed feedback; other: a plain row. */
  role: "approve" | "feedback" | "other";
}

/** planRows lists a plan dialog's picker rows with what each one does. */
export function planRows(d: Dialog): PlanRow[] {
  const rows = d.plan_rows && d.plan_rows.length > 0 ? d.plan_rows : defaultPlanRows;
  return rows.map((label, index) => {
    let role: PlanRow["role"] = "other";
    if (/^\s*yes\b/i.test(label)) role = "approve";
    else if (/tell claude|what to change|feedback/i.test(label)) role = "feedback";
    return { index, label, role, plain: plainPlanRow(label, role) };
  });
}

/**
 * plainPlanRow says what a plan picker row does without the CLI's terms
 * ("auto mode", "manually approve edits"): how the agent goes on once the
 * plan is approved.
 */
export function plainPlanRow(label: string, role: PlanRow["role"]): string {
  if (role === "feedback") return "Ask for changes";
  if (role !== "approve") return label;
  if (/auto[- ]accept|accept edits/i.test(label)) return "Approve, and accept its edits without asking";
  if (/auto mode/i.test(label)) return "Approve, and let it carry on by itself";
  if (/manual/i.test(label)) return "Approve, and ask me before each edit";
  return "Approve";
}

/** approvalText says how an approved plan went on, when the outcome records it. */
export function approvalText(o: Outcome): string {
  switch (o.approval_mode) {
    case "auto":
      return "approved · carries on by itself";
    case "manual":
      return "approved · asks before each edit";
    default:
      return "approved";
  }
}

/** planApprove builds the payload for approving through row i. */
export function planApprove(d: Dialog, row: number): Answer {
  const r = planRows(d)[row];
  if (d.kind !== "plan" || !r) throw new Error("no such plan row");
  return { tool_id: d.tool_id, option: row };
}

/** planReject builds the payload for rejecting with feedback. */
export function planReject(d: Dialog, feedback: string): Answer {
  if (d.kind !== "plan") throw new Error("not a plan dialog");
  const r = planRows(d).find((x) => x.role === "feedback");
  if (!r) throw new Error("this plan picker has no feedback row");
  if (feedback.trim() === "") throw new Error("say what to change");
  return { tool_id: d.tool_id, option: r.index, feedback };
}

/** describePick renders a pick as the operator would read it in a review step. */
export function describePick(q: Question, p: Pick | undefined): string {
  if (!p || !complete(p)) return "—";
  const parts = p.chosen.map((i) => q.options[i]?.label ?? `#${i + 1}`);
  if (p.other.trim() !== "") parts.push(p.other);
  return parts.join(", ");
}

/** SummaryLine is one "question → answer" line of an answered dialog. */
export interface SummaryLine {
  question: string;
  answer: string;
  /** The answer is free text the operator typed. */
  typed: boolean;
}

export interface Summary {
  dismissed: boolean;
  lines: SummaryLine[];
  /** Plans: approved, or rejected with feedback. */
  approved?: boolean;
  feedback?: string;
}

/** summarize turns an outcome into the inert Q→A summary of an answered dialog. */
export function summarize(d: Dialog, o: Outcome): Summary {
  if (o.dismissed) return { dismissed: true, lines: [] };
  if (d.kind === "plan") {
    return { dismissed: false, lines: [], approved: !!o.approved, feedback: o.feedback ?? "" };
  }
  const qs = d.questions ?? [];
  const results = o.results ?? [];
  const lines = results.map((r, i) => {
    const chosen = r.chosen ?? [];
    const other = r.other_text ?? "";
    const parts = [...chosen];
    if (other !== "") parts.push(other);
    return {
      question: r.question || qs[i]?.question || `Question ${i + 1}`,
      answer: parts.length ? parts.join(", ") : "—",
      typed: chosen.length === 0 && other !== "",
    };
  });
  return { dismissed: false, lines };
}
