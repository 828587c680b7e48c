// A TCP proxy in front of lab for the resilience tests: it forwards every
// connection both ways until told to go silent, when the connections it
// holds stop carrying anything in either direction but stay open, as a
// proxy or a network that lost them without saying so would (lab's
// writes still succeed; the browser hears nothing and sees no error), or
// to cut them, as a phone that lost its network does (its browser drops
// every connection). Connections made after that are forwarded again.
import { connect, createServer } from "node:net";

/** startProxy forwards 127.0.0.1:<its port> to 127.0.0.1:targetPort. */
export async function startProxy(targetPort) {
  const conns = new Set();
  const server = createServer((client) => {
    const c = { client, upstream: connect(targetPort, "127.0.0.1"), silent: false };
    conns.add(c);
    client.on("data", (b) => c.silent || c.upstream.write(b));
    c.upstream.on("data", (b) => c.silent || client.write(b));
    const end = () => {
      conns.delete(c);
      client.destroy();
      c.upstream.destroy();
    };
    for (const s of [client, c.upstream]) {
      s.on("close", end);
      s.on("error", end);
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    /** silence makes every connection open now carry nothing, forever. */
    silence() {
      for (const c of conns) c.silent = true;
    },
    /** cut closes every connection open now. */
    cut() {
      for (const c of conns) {
        c.client.destroy();
        c.upstream.destroy();
      }
    },
    /** open counts the connections open now, silent or not. */
    open: () => conns.size,
    async close() {
      for (const c of conns) {
        c.client.destroy();
        c.upstream.destroy();
      }
      await new Promise((ok) => server.close(ok));
    },
  };
}
