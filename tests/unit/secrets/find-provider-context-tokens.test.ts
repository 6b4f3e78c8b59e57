import { describe, expect, it } from "vitest";
import { findProviderContextTokens } from "@/lib/secrets/find-provider-context-tokens";
import { scanSecrets } from "@/lib/secrets/scan-secrets";

const apiKey = "3f9a0c1b2d4e5f60718293a4b5c6d7e8";
const appKey = `${apiKey}a1b2c3d4`;

describe("findProviderContextTokens: Datadog", () => {
  it.each([
    [`Datadog API key: ${apiKey}`, "datadog-api-key", apiKey],
    [`DD_API_KEY=${apiKey}`, "datadog-api-key", apiKey],
    [`DATADOG_API_KEY: "${apiKey}"`, "datadog-api-key", apiKey],
    [`DD_APP_KEY=${appKey}`, "datadog-app-key", appKey],
    [`DD_APPLICATION_KEY=${appKey}`, "datadog-app-key", appKey],
    [`The Datadog application key is ${appKey}.`, "datadog-app-key", appKey],
  ])("finds the key in %s and names it", (text, kind, value) => {
    const start = text.indexOf(value);
    expect(scanSecrets(text)).toEqual([expect.objectContaining({ kind, start, end: start + value.length })]);
  });

  it.each([
    `Datadog API key rotation landed in commit ${appKey}`,
    `The Datadog app key rotation was fixed in ${appKey}.`,
    `datadog app key fix: ${appKey}`,
    `Datadog API key docs: sha ${apiKey}`,
    `datadog trace id ${apiKey}`,
  ])("leaves %s alone", (text) => {
    expect(findProviderContextTokens(text)).toEqual([]);
    expect(scanSecrets(text)).toEqual([]);
  });
});

describe("findProviderContextTokens: Twilio", () => {
  const sid = "AC5e2b7c0d9f4a1386b2c7d0e9f4a13865";
  const authToken = "9d4f0a2b7c1e8365d0a4b9f2c7e1d086";

  // Bug 03: the account SID between the word Twilio and the token pushed the token out of reach.
  it.each([
    `Twilio account ${sid}, auth token ${authToken}`,
    `Twilio: account SID ${sid} / auth token ${authToken}`,
    `twilio sid ${sid} token ${authToken}`,
    `${sid} auth token: ${authToken}`,
  ])("finds the auth token in %s", (text) => {
    const start = text.indexOf(authToken);
    expect(scanSecrets(text)).toEqual([expect.objectContaining({ kind: "twilio-auth-token", start, end: start + authToken.length })]);
  });

  it.each([
    `Twilio account ${sid} sends from the messaging service MG${authToken}`,
    `twilio sid ${sid}, token rotation fixed in commit ${authToken}`,
  ])("leaves %s alone", (text) => {
    expect(scanSecrets(text)).toEqual([]);
  });
});
