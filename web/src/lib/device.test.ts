import { describe, expect, it } from "vitest";
import { defaultDeviceName, keyBytes, sameKey } from "./device";

describe("defaultDeviceName", () => {
  it.each([
    ["Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36", "Chrome on Android"],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1", "Safari on iPhone"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Mac"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 Edg/130.0", "Edge on Windows"],
    ["curl/8", "Browser"],
  ])("%s", (ua, want) => expect(defaultDeviceName(ua)).toBe(want));
});

describe("keyBytes", () => {
  it("decodes unpadded base64url", () => {
    expect([...keyBytes("AQID_-8")]).toEqual([1, 2, 3, 255, 239]);
    expect([...keyBytes("AA")]).toEqual([0]);
  });
  it("compares keys", () => {
    const k = keyBytes("AQID");
    expect(sameKey(new Uint8Array([1, 2, 3]).buffer, k)).toBe(true);
    expect(sameKey(new Uint8Array([1, 2, 4]).buffer, k)).toBe(false);
    expect(sameKey(null, k)).toBe(false);
  });
});
