import { describe, expect, it } from "vitest";
import { maskSecretsDeep } from "@/lib/secrets/mask-secret-ranges";

// Assembled at run time so no scanner of this repository flags the file itself.
const PASSWORD = ["Zq8!vR2", "#mK9wLp"].join("");
const GITHUB = ["ghp", "_", "R7mK2pQ9xL4vT8wZ3nB6cD1fG5hJ0kS2aE4y"].join("");

describe("maskSecretsDeep", () => {
  it("masks a value its key names as a secret, and leaves ordinary keys' values as they are", () => {
    const masked = maskSecretsDeep({ password: PASSWORD, nested: { DB_PASSWORD: PASSWORD }, session: "s-7", tokenId: "clx8a9b0c0000qwerty1234", commit: "39fbdd24916b6752063b5115b5b97199927d96d4" }) as Record<string, unknown>;
    expect(JSON.stringify(masked)).not.toContain(PASSWORD);
    expect(masked.password).toMatch(/^\[REDACTED:password-assignment/);
    expect(masked).toMatchObject({ session: "s-7", tokenId: "clx8a9b0c0000qwerty1234", commit: "39fbdd24916b6752063b5115b5b97199927d96d4" });
  });

  it("still masks a secret in a value on its own, under any key, and in a key", () => {
    const masked = maskSecretsDeep({ note: `the bot uses ${GITHUB}`, [GITHUB]: "x" });
    expect(JSON.stringify(masked)).not.toContain(GITHUB);
    expect((masked as Record<string, string>).note).toMatch(/^the bot uses \[REDACTED:github-classic-token/);
  });
});
