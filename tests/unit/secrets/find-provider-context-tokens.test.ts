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
