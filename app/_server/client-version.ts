import { z } from "zod";
import { findCredentialInName } from "@/lib/secrets/find-credential-in-name";

/**
 * The version a `teammem` client sends (`client=` on sync, `provenance.clientVersion`): stored in
 * clear and shown to leads, so it is held to the name rules, which also see a token between `_`
 * or `-` (`0.1_ghp_…`). The CLI sends its package version (`0.1.0`); a semver with pre-release
 * and build parts fits the bound.
 */
export const ClientVersion = z
  .string()
  .regex(/^[A-Za-z0-9._+-]{1,64}$/, { error: "must be the client's version, 1-64 letters, digits, dots, dashes, underscores or +, e.g. 0.1.0" })
  .superRefine((version, context) => {
    const credential = findCredentialInName(version);
    if (credential) context.addIssue({ code: "custom", message: `${credential}; send the client's version, e.g. 0.1.0` });
  });
