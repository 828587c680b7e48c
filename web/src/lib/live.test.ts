import { describe, expect, it } from "vitest";
import type { LiveText, Message } from "../api";
import { mergePartials, shownLive } from "./live";

const msg = (seq: number, role: "user" | "assistant", kind: Message["kind"] = "text"): Message => ({ seq, kind, role, text: "x", content_hash: String(seq) });

describe("live text", () => {
  const live: LiveText = { text: "Streaming slowly", since: "", after_seq: 3 };
  it("shows while the agent's message has not landed", () => {
    expect(shownLive(live, [msg(2, "assistant"), msg(3, "user"), msg(4, "assistant", "tool")])).toBe(live);
  });
  it("gives way to the agent's message after it", () => {
    expect(shownLive(live, [msg(3, "user"), msg(4, "assistant")])).toBeNull();
  });
  it("shows nothing for no words", () => {
    expect(shownLive({ ...live, text: "" }, [])).toBeNull();
    expect(shownLive(null, [])).toBeNull();
  });
});

describe("partials", () => {
  it("merge by place, in order, a newer copy replacing an older", () => {
    const got = mergePartials([{ after_seq: 5, text: "b", time: "" }], [{ after_seq: 2, text: "a", time: "" }, { after_seq: 5, text: "b2", time: "" }]);
    expect(got.map((p) => p.text)).toEqual(["a", "b2"]);
  });
  it("keep what is held when a page has none", () => {
    const held = [{ after_seq: 1, text: "a", time: "" }];
    expect(mergePartials(held, [])).toBe(held);
  });
});
