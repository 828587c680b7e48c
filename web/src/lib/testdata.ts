// Builders for unit tests: small messages and dialogs in the wire shape.

import type { Dialog, Message, Outcome, PlanOption } from "../api";

export function text(seq: number, body = `m${seq}`, hash = `h${seq}`): Message {
  return { seq, kind: "text", role: "assistant", text: body, content_hash: hash };
}

export function dialogMsg(seq: number, d: Dialog, hash = `d${seq}`): Message {
  return { seq, kind: "dialog", dialog: d, content_hash: hash };
}

export function question(toolId: string, outcome: Outcome | null = null, multi = false): Dialog {
  return {
    tool_id: toolId,
    kind: "question",
    answerable: true,
    outcome,
    questions: [
      {
        question: "Which database?",
        header: "DB",
        multi_select: multi,
        options: [{ label: "SQLite", description: "Embedded" }, { label: "PostgreSQL" }, { label: "MySQL" }],
      },
    ],
  };
}

export function form(toolId: string): Dialog {
  return {
    tool_id: toolId,
    kind: "question",
    answerable: true,
    outcome: null,
    questions: [
      { question: "Color?", header: "Color", multi_select: false, options: [{ label: "Red" }, { label: "Blue" }] },
      { question: "Toppings?", header: "Top", multi_select: true, options: [{ label: "Cheese" }, { label: "Olives" }, { label: "Ham" }] },
      { question: "Size?", header: "Size", multi_select: false, options: [{ label: "S" }, { label: "L" }] },
    ],
  };
}

/** A plan picker's rows as a server sends them: labels in the CLI's words, roles and modes in lab's. */
export const planOptions: PlanOption[] = [
  { label: "Yes, and carry on", role: "approve", mode: "auto" },
  { label: "Yes, ask before edits", role: "approve", mode: "manual" },
  { label: "Say what to change", role: "feedback" },
];

export function plan(toolId: string, outcome: Outcome | null = null, options: PlanOption[] = planOptions): Dialog {
  return { tool_id: toolId, kind: "plan", plan: "# Plan\n\n1. do it", answerable: true, outcome, plan_rows: options.map((o) => o.label), plan_options: options };
}
