import { describe, expect, it } from "vitest";
import { toAuthAppError } from "@/lib/http/auth-error";

const shown = (status: number, body: unknown) => {
  const error = toAuthAppError(status, body);
  return { code: error.code, message: error.message };
};

describe("toAuthAppError: better-auth's refusals in teammem's codes and words", () => {
  it("words the refusals of the open endpoints as teammem does", () => {
    expect(shown(403, { message: "Invalid origin", code: "INVALID_ORIGIN" })).toEqual({ code: "FORBIDDEN", message: "Cross-site request refused: sign in and change your password on the teammem dashboard." });
    expect(shown(401, { message: "Invalid email or password", code: "INVALID_EMAIL_OR_PASSWORD" })).toEqual({ code: "UNAUTHORIZED", message: "Wrong email or password." });
    expect(shown(400, { message: "Invalid password", code: "INVALID_PASSWORD" })).toEqual({ code: "INVALID_INPUT", message: "The current password is wrong." });
  });

  it("keeps teammem's own message raised inside better-auth (the sign-in limit), and a short unknown one with its status's code", () => {
    expect(shown(429, { code: "TOO_MANY_FAILED_SIGN_INS", message: "Too many failed sign-ins. Try again in 42 seconds." })).toEqual({ code: "RATE_LIMITED", message: "Too many failed sign-ins. Try again in 42 seconds." });
    expect(shown(400, { code: "VALIDATION_ERROR", message: "[body.email] Invalid email address" })).toEqual({ code: "INVALID_INPUT", message: "[body.email] Invalid email address." });
  });

  it("never passes on a server error's text, a multi-line message or a body that is not better-auth's", () => {
    expect(shown(500, { message: "PrismaClientKnownRequestError at db.ts:12" })).toEqual({ code: "INTERNAL", message: "Something went wrong on the server; the error was logged." });
    expect(shown(400, { message: "line one\n    at stack (file.js:1)" }).message).toBe("The sign-in service refused this request.");
    expect(shown(401, null)).toEqual({ code: "UNAUTHORIZED", message: "Sign in first." });
    expect(shown(418, "teapot").code).toBe("INVALID_INPUT");
  });
});
