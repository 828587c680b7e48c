import { afterEach, describe, expect, test, vi } from "vitest";
import { compactFor } from "./compact";

/** serve answers the app's fetches: the command list, and records the command run. */
function serve(list: { status: number; body?: unknown }) {
  const sent: { url: string; body?: string }[] = [];
  vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
    if (init?.method === "POST") {
      sent.push({ url, body: init.body as string });
      return new Response(null, { status: 204 });
    }
    return new Response(list.body === undefined ? "" : JSON.stringify(list.body), { status: list.status });
  });
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe("compactFor", () => {
  test("a run whose CLI lists /compact gets a button that runs it as a command", async () => {
    const sent = serve({ status: 200, body: { commands: [{ name: "clear" }, { name: "compact" }] } });
    const fn = await compactFor("r 1");
    expect(fn).not.toBeNull();
    await fn!();
    expect(sent).toEqual([{ url: "/api/v1/runs/r%201/command", body: JSON.stringify({ name: "compact" }) }]);
  });
  test("no button without the endpoint, or when /compact is refused or absent", async () => {
    serve({ status: 404, body: { error: "no API endpoint" } });
    expect(await compactFor("r1")).toBeNull();
    serve({ status: 200, body: { commands: [{ name: "compact", refused: "not checked" }] } });
    expect(await compactFor("r1")).toBeNull();
    serve({ status: 200, body: { commands: [] } });
    expect(await compactFor("r1")).toBeNull();
  });
});
