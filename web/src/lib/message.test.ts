import { describe, expect, test } from "vitest";
import { ApiError } from "../api";
import { authFailure, sentence, waitText } from "./message";

describe("authFailure", () => {
  test("a wrong password and a used setup token say different things", () => {
    expect(authFailure(new ApiError(401, "wrong password")).text).toBe("Wrong password.");
    const used = authFailure(new ApiError(401, "the setup token is unknown, used or expired: restart lab for a new setup link, or run `lab passwd`"));
    expect(used.text).toMatch(/^The setup token is unknown, used or expired/);
    expect(used.wait).toBe(0);
  });
  test("a lockout says what ran out and carries the Retry-After wait", () => {
    expect(authFailure(new ApiError(429, "too many login attempts from your address: try again in 12 s", 12))).toEqual({
      text: "Too many login attempts from your address.",
      wait: 12,
    });
    expect(authFailure(new ApiError(429, "too many login attempts from devices that have not logged in here before: try again in 2 s", 2)).text).toBe(
      "Too many login attempts from devices that have not logged in here before.",
    );
    expect(authFailure(new ApiError(429, "try again in 5 s", 5))).toEqual({ text: "Too many attempts.", wait: 5 });
    expect(authFailure(new ApiError(429, "slow down")).wait).toBe(60);
  });
  test("offline and other errors", () => {
    expect(authFailure(new ApiError(0, "cannot reach the lab server")).text).toMatch(/Cannot reach/);
    expect(authFailure(new ApiError(400, "password must have at least 8 characters")).text).toBe("Password must have at least 8 characters.");
    expect(authFailure(new Error("boom")).text).toBe("Boom.");
  });
});

test("sentence keeps existing punctuation", () => {
  expect(sentence("done!")).toBe("Done!");
  expect(sentence("  ")).toBe("");
});

test("waitText", () => {
  expect(waitText(12)).toBe("12 s");
  expect(waitText(11.2)).toBe("12 s");
  expect(waitText(60)).toBe("1 min");
  expect(waitText(75)).toBe("1 min 15 s");
  expect(waitText(-3)).toBe("0 s");
});
