import { describe, expect, it } from "vitest";
import { normaliseRepoUrl } from "@/lib/projects/normalise-repo-url";

const url = (input: string) => {
  const result = normaliseRepoUrl(input);
  return result.ok ? result.url : `error: ${result.reason}`;
};

describe("normaliseRepoUrl", () => {
  it("gives every clone URL of one GitHub repository the same form", () => {
    for (const input of [
      "github.com/acme/checkout",
      "https://github.com/acme/checkout",
      "https://github.com/acme/checkout.git",
      "https://github.com/acme/checkout/",
      "https://github.com/acme/checkout.git/",
      "HTTPS://GitHub.COM/acme/checkout",
      "http://github.com:80/acme/checkout",
      "https://github.com:443/acme/checkout.git",
      "git@github.com:acme/checkout.git",
      "git@github.com:acme/checkout",
      "ssh://git@github.com/acme/checkout.git",
      "ssh://git@github.com:22/acme/checkout",
      "git+ssh://git@github.com/acme/checkout.git",
      "git://github.com/acme/checkout.git",
      "  https://github.com/acme/checkout  ",
    ]) {
      expect(url(input), input).toBe("github.com/acme/checkout");
    }
  });

  it("strips credentials, queries and fragments, never keeping a token", () => {
    expect(url("https://user:ghp_abcdefghijklmnop@github.com/acme/checkout.git")).toBe("github.com/acme/checkout");
    expect(url("https://oauth2:glpat-xyz@gitlab.example.com/group/app.git")).toBe("gitlab.example.com/group/app");
    expect(url("deploy@github.com/acme/checkout")).toBe("github.com/acme/checkout");
    expect(url("https://github.com/acme/checkout?tab=readme#top")).toBe("github.com/acme/checkout");
  });

  it("keeps nested groups, path case and non-default ports", () => {
    expect(url("https://gitlab.example.com/group/sub/app")).toBe("gitlab.example.com/group/sub/app");
    expect(url("git@gitlab.example.com:group/sub/app.git")).toBe("gitlab.example.com/group/sub/app");
    expect(url("https://git.example.com/Org/App")).toBe("git.example.com/Org/App");
    expect(url("ssh://git@git.example.com:2222/org/app.git")).toBe("git.example.com:2222/org/app");
    expect(url("https://git.example.com:8443/org/app")).toBe("git.example.com:8443/org/app");
    // An ssh port given with https is not https' default: kept.
    expect(url("https://git.example.com:22/org/app")).toBe("git.example.com:22/org/app");
    expect(url("ssh://git@host:22/org/app")).toBe("host/org/app");
    expect(url("ssh://me@server.example.com/~me/notes.git")).toBe("server.example.com/~me/notes");
  });

  it("is idempotent: a normalised URL, ports included, normalises to itself", () => {
    for (const normal of ["github.com/acme/checkout", "git.example.com:2222/org/app", "gitlab.example.com/group/sub/app"]) {
      expect(url(normal)).toBe(normal);
    }
  });

  it("refuses what is not a shared repository address, saying why", () => {
    const cases: [string, RegExp][] = [
      ["", /empty/],
      ["   ", /empty/],
      ["not a url", /spaces/],
      ["checkout", /not a host name/],
      ["https://github.com", /names no repository/],
      ["https://github.com/", /names no repository/],
      ["github.com/.git", /names no repository/],
      ["/srv/git/checkout.git", /local file path/],
      ["./checkout", /local file path/],
      ["file:///srv/git/checkout.git", /local file path/],
      ["ftp://example.com/acme/checkout", /scheme ftp/],
      ["https://github.com/acme/../etc", /\.\. segments/],
      ["git@github.com:../etc", /\.\. segments/],
      ["https://exa_mple.com/acme/app", /not a valid host name/],
      ["github.com/acme/check<out>", /characters a repository path does not use/],
      ["https://github.com/" + "a".repeat(600), /longer than 500/],
      ["https://[::1/acme/app", /not a valid URL|host/],
    ];
    for (const [input, reason] of cases) {
      const result = normaliseRepoUrl(input);
      expect(result.ok, input).toBe(false);
      if (!result.ok) expect(result.reason, input).toMatch(reason);
    }
  });
});
