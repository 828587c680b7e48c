// A stand-in push service for the browser suite: an HTTP server that
// accepts lab's Web Push requests like a browser vendor's service, holding
// the subscription's private key like the browser would, and decrypting
// what arrives (RFC 8291 aes128gcm). Test-only code: lab encrypts with
// webpush-go; this only opens what it sent. The decrypted payload is then
// handed to the real service worker through the DevTools protocol, which
// is the one step a real push service would do that this one cannot.
import { createDecipheriv, createECDH, hkdfSync, randomBytes } from "node:crypto";
import { createServer } from "node:http";

const b64url = (b) => Buffer.from(b).toString("base64url");
const hkdf = (ikm, salt, info, n) => Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from(info), n));

export async function startPushService() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const received = [];
  const waiters = [];
  let status = 201;

  function decrypt(body) {
    const salt = body.subarray(0, 16);
    const idlen = body[20];
    const asPublic = body.subarray(21, 21 + idlen);
    const ct = body.subarray(21 + idlen);
    const secret = ecdh.computeSecret(asPublic);
    const info = Buffer.concat([Buffer.from("WebPush: info\0"), ecdh.getPublicKey(), asPublic]);
    const ikm = hkdf(secret, auth, info, 32);
    const key = hkdf(ikm, salt, "Content-Encoding: aes128gcm\0", 16);
    const nonce = hkdf(ikm, salt, "Content-Encoding: nonce\0", 12);
    const d = createDecipheriv("aes-128-gcm", key, nonce);
    d.setAuthTag(ct.subarray(ct.length - 16));
    const plain = Buffer.concat([d.update(ct.subarray(0, ct.length - 16)), d.final()]);
    let end = plain.length - 1;
    while (end >= 0 && plain[end] === 0) end--;
    if (plain[end] !== 2) throw new Error("no last-record delimiter");
    return plain.subarray(0, end).toString("utf8");
  }

  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      let text = null;
      let error = null;
      try {
        text = decrypt(Buffer.concat(chunks));
      } catch (e) {
        error = String(e);
      }
      const msg = { path: req.url, text, error, headers: req.headers, at: Date.now() };
      received.push(msg);
      waiters.splice(0).forEach((w) => w());
      res.writeHead(error ? 400 : status);
      res.end();
    });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  const endpoint = `http://127.0.0.1:${port}/push/${b64url(randomBytes(8))}`;
  return {
    subscription: { endpoint, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) } },
    received,
    /** next waits for a push whose decrypted payload satisfies ok. */
    async next(ok = () => true, timeout = 90000) {
      const end = Date.now() + timeout;
      for (;;) {
        const i = received.findIndex((m) => m.text && ok(JSON.parse(m.text)));
        if (i >= 0) return JSON.parse(received.splice(i, 1)[0].text);
        const bad = received.find((m) => m.error);
        if (bad) throw new Error("push did not decrypt: " + bad.error);
        if (Date.now() > end) throw new Error("no matching push arrived");
        await new Promise((r) => {
          waiters.push(r);
          setTimeout(r, 500);
        });
      }
    },
    setStatus(s) {
      status = s;
    },
    close: () => new Promise((ok) => server.close(ok)),
  };
}
