import { describe, expect, it } from "vitest";
import { isLocalDefaultCredential } from "@/lib/secrets/is-local-default-credential";
import { scanSecrets } from "@/lib/secrets/scan-secrets";

describe("isLocalDefaultCredential (bug 09)", () => {
  it.each([
    ["postgres", "postgres", "localhost"],
    ["user", "pass", "localhost"],
    ["guest", "guest", "127.0.0.1"],
    ["root", "root", "127.0.0.1"],
    ["minioadmin", "minioadmin", "[::1]"],
    ["postgres", "postgres", "db"],
    ["app", "mysecretpassword", "api.localhost"],
  ])("passes %s:%s on %s, a published default on a local host", (user, password, host) => {
    expect(isLocalDefaultCredential({ user, password, host })).toBe(true);
  });

  it.each([
    ["app", "Xk9$mQ2vLp7", "localhost"],
    ["postgres", "s3cr3t-prod", "127.0.0.1"],
    ["postgres", "postgres", "db.internal.acme.io"],
    ["guest", "guest", "10.0.0.5"],
    ["root", "root", "localhost.acme.io"],
  ])("flags %s:%s on %s", (user, password, host) => {
    expect(isLocalDefaultCredential({ user, password, host })).toBe(false);
  });

  it("still finds a real password on localhost in a URL and in a mysql command", () => {
    const url = "postgres://app:Xk9$mQ2vLp7@localhost:5432/app";
    const command = "mysql -h 127.0.0.1 -uroot -pXk9mQ2vLp7 test";
    expect(scanSecrets(url)).toMatchObject([{ kind: "url-password", start: url.indexOf("Xk9"), end: url.indexOf("@") }]);
    expect(scanSecrets(command)).toMatchObject([{ kind: "password-assignment", start: command.indexOf("Xk9") }]);
  });
});
