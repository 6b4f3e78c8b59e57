import { createHash } from "node:crypto";

/** `tm_` + 40 characters from [A-Za-z0-9]: recognisable in logs and secret scans, ~238 bits. */
export const TOKEN_PATTERN = /^tm_[A-Za-z0-9]{40}$/;
export const TOKEN_PREFIX_LENGTH = 7; // "tm_" + 4: enough to tell tokens apart in a list

/** Tokens are stored only as this hash; a leaked database does not leak usable tokens. */
export function hashApiToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A token's project scope as stored (JSON array); anything damaged grants nothing. */
export function parseProjectIds(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}
