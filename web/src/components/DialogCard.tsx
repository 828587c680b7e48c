// The pending dialog as an interactive card, inline in the chat stream.
// Every shape of answer: single-select (tap an option), free text (Other),
// multi-select (checkboxes + submit), multi-question forms (one step per
// question, review, submit) and plans (approve rows, or reject with
// feedback). The card grows with its content: the chat pane is the only
// scroll container. While an answer is in flight everything is disabled;
// a 409 means the dialog changed under us, and the chat refetches.

import { createSignal, For, Match, Show, Switch } from "solid-js";
import type { Dialog, Question } from "../api";
import {
  complete,
  describePick,
  emptyPick,
  otherOnly,
  planApprove,
  planReject,
  planRows,
  questionAnswer,
  selectOne,
  toggle,
  withOther,
  type Pick,
} from "../lib/answer";
import { type CardProps, useSend } from "./card";
import { pickByNumber } from "./cardkeys";
import { PermissionCard } from "./PermissionCard";
import { Markdown } from "./Markdown";
import { Alert } from "./Alert";

export function DialogCard(props: CardProps) {
  return (
    <section
      class={`card k-${props.d.kind}`}
      data-card={props.d.tool_id}
      aria-label={props.d.kind === "plan" ? "Plan approval" : props.d.kind === "permission" ? "Permission" : "Question"}
      tabindex="0"
      onKeyDown={pickByNumber}
    >
      <Show when={props.d.answerable} fallback={<ReadOnlyCard d={props.d} />}>
        <Switch fallback={<QuestionCard {...props} />}>
          <Match when={props.d.kind === "plan"}>
            <PlanCard {...props} />
          </Match>
          <Match when={props.d.kind === "permission"}>
            <PermissionAsk {...props} />
          </Match>
        </Switch>
      </Show>
    </section>
  );
}

function PermissionAsk(props: CardProps) {
  const { sending, error, send } = useSend(props);
  return (
    <>
      <PermissionCard {...props} send={send} sending={sending} />
      <Alert error={error()} />
    </>
  );
}

function ReadOnlyCard(props: { d: Dialog }) {
  return (
    <>
      <div class="card-head">{props.d.kind === "plan" ? "Plan waiting for approval" : props.d.kind === "permission" ? "The agent asks for permission" : "The agent asks"}</div>
      <Show when={props.d.permission?.command}>
        <pre class="code wrap">{props.d.permission!.command}</pre>
      </Show>
      <Show when={props.d.kind === "plan"}>
        <Markdown text={props.d.plan ?? ""} class="plan" />
      </Show>
      <For each={props.d.questions ?? []}>{(q) => <p class="q-text">{q.question}</p>}</For>
      <p class="muted">Answer this one at the terminal.</p>
    </>
  );
}

function PlanCard(props: CardProps) {
  const { sending, error, send } = useSend(props);
  const rows = () => planRows(props.d);
  const [feedback, setFeedback] = createSignal("");
  const fbRow = () => rows().find((r) => r.role === "feedback");
  return (
    <>
      <div class="card-head">Plan ready for review</div>
      <Markdown text={props.d.plan ?? ""} class="plan" />
      <div class="options">
        <For each={rows().filter((r) => r.role === "approve")}>
          {(r) => (
            <button
              class="opt approve"
              disabled={sending()}
              onClick={() => send(() => planApprove(props.d, r.index))}
              data-row={r.index}
            >
              <span class="opt-label">
                <span class="opt-key" aria-hidden="true">
                  {r.index + 1}
                </span>
                {r.plain}
              </span>
              <span class="opt-desc">{r.label}</span>
            </button>
          )}
        </For>
      </div>
      <Show when={rows().every((r) => r.role === "other")}>
        <p class="muted">lab cannot tell what this picker's rows do: answer it at the terminal.</p>
      </Show>
      <Show when={fbRow()}>
        <div class="reject">
          <label class="reject-label" for={`fb-${props.d.tool_id}`}>
            {fbRow()!.plain}
            <span class="opt-desc">{fbRow()!.label}</span>
          </label>
          <textarea
            id={`fb-${props.d.tool_id}`}
            rows={2}
            placeholder="What should change?"
            value={feedback()}
            disabled={sending()}
            onInput={(e) => setFeedback(e.currentTarget.value)}
          />
          <button class="btn danger" disabled={sending() || feedback().trim() === ""} onClick={() => send(() => planReject(props.d, feedback()))}>
            Reject with feedback
          </button>
        </div>
      </Show>
      <Alert error={error()} />
    </>
  );
}

function QuestionCard(props: CardProps) {
  const { sending, error, send } = useSend(props);
  const qs = () => props.d.questions ?? [];
  const form = () => qs().length > 1;
  const [picks, setPicks] = createSignal<(Pick | undefined)[]>([]);
  const [step, setStep] = createSignal(0);
  // Set while a question is edited from the review step: finishing it
  // returns to the review instead of walking the later questions again.
  const [fromReview, setFromReview] = createSignal(false);
  const advance = (i: number) => {
    if (fromReview()) {
      setFromReview(false);
      setStep(qs().length);
    } else setStep(i + 1);
  };

  const setPick = (i: number, p: Pick) =>
    setPicks((ps) => {
      const next = [...ps];
      next[i] = p;
      return next;
    });

  /** after a single-select choice: send at once (one question) or move on. */
  function chose(i: number, p: Pick) {
    setPick(i, p);
    if (!form()) {
      send(() => questionAnswer(props.d, [p]));
      return;
    }
    advance(i);
  }

  const submitAll = () => send(() => questionAnswer(props.d, picks()));

  return (
    <>
      <div class="card-head">
        The agent asks
        <Show when={form()}>
          <span class="muted small">
            {" "}
            · {step() < qs().length ? `${step() + 1} of ${qs().length}` : "review"}
          </span>
        </Show>
      </div>
      <Switch>
        <Match when={step() < qs().length}>
          <Show when={qs()[step()]} keyed>
            {(q) => (
              <QuestionStep
                q={q}
                index={step()}
                pick={picks()[step()]}
                disabled={sending()}
                form={form()}
                onPick={(p) => setPick(step(), p)}
                onChoose={(p) => chose(step(), p)}
                onNext={() => (form() ? advance(step()) : submitAll())}
                onBack={step() > 0 ? () => setStep(step() - 1) : undefined}
              />
            )}
          </Show>
        </Match>
        <Match when={step() >= qs().length}>
          <div class="review">
            <For each={qs()}>
              {(q, i) => (
                <div class="qa review-row">
                  <div class="q">{q.question}</div>
                  <div class="a">{describePick(q, picks()[i()])}</div>
                  <button
                    class="link"
                    disabled={sending()}
                    onClick={() => {
                      setFromReview(true);
                      setStep(i());
                    }}
                    data-edit={i()}
                  >
                    Edit
                  </button>
                </div>
              )}
            </For>
            <div class="actions">
              <button class="btn" disabled={sending()} onClick={() => setStep(qs().length - 1)}>
                Back
              </button>
              <button class="btn primary" disabled={sending() || !qs().every((_, i) => complete(picks()[i]))} onClick={submitAll}>
                Submit answers
              </button>
            </div>
          </div>
        </Match>
      </Switch>
      <Alert error={error()} />
    </>
  );
}

interface StepProps {
  q: Question;
  index: number;
  pick: Pick | undefined;
  disabled: boolean;
  form: boolean;
  onPick: (p: Pick) => void;
  onChoose: (p: Pick) => void;
  onNext: () => void;
  onBack?: () => void;
}

/** QuestionStep is one question's picker. */
function QuestionStep(props: StepProps) {
  const p = () => props.pick ?? emptyPick;
  const [otherOpen, setOtherOpen] = createSignal(p().other !== "");
  const id = (suffix: string) => `q${props.index}-${suffix}`;
  return (
    <div class="step">
      <Show when={props.q.header}>
        <div class="q-header">{props.q.header}</div>
      </Show>
      <p class="q-text">{props.q.question}</p>
      <Show
        when={props.q.multi_select}
        fallback={
          <div class="options">
            <For each={props.q.options}>
              {(o, i) => (
                <button
                  class={`opt${p().chosen[0] === i() && p().other === "" ? " on" : ""}`}
                  disabled={props.disabled}
                  onClick={() => props.onChoose(selectOne(i()))}
                  data-option={i()}
                >
                  <span class="opt-label">
                    <span class="opt-key" aria-hidden="true">
                      {i() + 1}
                    </span>
                    {o.label}
                  </span>
                  <Show when={o.description}>
                    <span class="opt-desc">{o.description}</span>
                  </Show>
                </button>
              )}
            </For>
            <Show
              when={otherOpen()}
              fallback={
                <button class="opt other" disabled={props.disabled} onClick={() => setOtherOpen(true)} data-option="other">
                  <span class="opt-label">Other…</span>
                  <span class="opt-desc">Type your own answer</span>
                </button>
              }
            >
              <div class="other-box">
                <textarea
                  id={id("other")}
                  rows={2}
                  placeholder="Your answer"
                  aria-label="Your answer"
                  value={p().other}
                  disabled={props.disabled}
                  onInput={(e) => props.onPick(otherOnly(e.currentTarget.value))}
                  ref={(el) => queueMicrotask(() => el.focus())}
                />
                <button class="btn primary" disabled={props.disabled || p().other.trim() === ""} onClick={() => props.onChoose(otherOnly(p().other))}>
                  {props.form ? "Next" : "Send"}
                </button>
              </div>
            </Show>
          </div>
        }
      >
        <div class="options">
          <For each={props.q.options}>
            {(o, i) => (
              <label class={`opt check${p().chosen.includes(i()) ? " on" : ""}`} data-option={i()}>
                <input type="checkbox" checked={p().chosen.includes(i())} disabled={props.disabled} onChange={() => props.onPick(toggle(p(), i()))} />
                <span class="opt-text">
                  <span class="opt-label">
                    <span class="opt-key" aria-hidden="true">
                      {i() + 1}
                    </span>
                    {o.label}
                  </span>
                  <Show when={o.description}>
                    <span class="opt-desc">{o.description}</span>
                  </Show>
                </span>
              </label>
            )}
          </For>
          <label class="opt other-inline" for={id("other")}>
            <span class="opt-label">Other</span>
            <input
              id={id("other")}
              type="text"
              placeholder="Type something"
              value={p().other}
              disabled={props.disabled}
              onInput={(e) => props.onPick(withOther(p(), e.currentTarget.value))}
            />
          </label>
        </div>
        <div class="actions">
          <Show when={props.onBack}>
            <button class="btn" disabled={props.disabled} onClick={() => props.onBack!()}>
              Back
            </button>
          </Show>
          <button class="btn primary" disabled={props.disabled || !complete(p())} onClick={props.onNext}>
            {props.form ? "Next" : "Submit"}
          </button>
        </div>
      </Show>
      <Show when={!props.q.multi_select && props.onBack}>
        <div class="actions">
          <button class="btn" disabled={props.disabled} onClick={() => props.onBack!()}>
            Back
          </button>
        </div>
      </Show>
    </div>
  );
}
