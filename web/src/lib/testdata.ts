// Builders for unit tests: small messages and dialogs in the wire shape.

import type { Dialog, Message, Outcome } from "../api";

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

export function plan(toolId: string, outcome: Outcome | null = null, rows?: string[]): Dialog {
  return { tool_id: toolId, kind: "plan", plan: "# Plan\n\n1. do it", answerable: true, outcome, plan_rows: rows };
}
