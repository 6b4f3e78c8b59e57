import { describe, expect, it } from "vitest";
import { deriveProjectId } from "@/lib/projects/derive-project-id";
import { ProjectId } from "@/lib/store/store-manifest";

describe("deriveProjectId", () => {
  it("takes the repository path without the host", () => {
    expect(deriveProjectId({ repoUrl: "github.com/acme/checkout", name: "Whatever" })).toBe("acme-checkout");
    expect(deriveProjectId({ repoUrl: "gitlab.example.com/group/sub/app" })).toBe("group-sub-app");
    expect(deriveProjectId({ repoUrl: "git.example.com:2222/Org/My_App" })).toBe("org-my-app");
    expect(deriveProjectId({ repoUrl: "github.com/acme/checkout.v2" })).toBe("acme-checkout.v2");
    expect(deriveProjectId({ repoUrl: "server.example.com/~me/notes" })).toBe("me-notes");
  });

  it("falls back to the name when there is no URL", () => {
    expect(deriveProjectId({ name: "Acme Checkout" })).toBe("acme-checkout");
    expect(deriveProjectId({ name: "  Café Ünïcode -- Team!  " })).toBe("cafe-unicode-team");
    expect(deriveProjectId({ repoUrl: null, name: "Payments 2.0" })).toBe("payments-2.0");
  });

  it("gives null when nothing usable is left, and always a valid ProjectId otherwise", () => {
    expect(deriveProjectId({ name: "!!! ???" })).toBeNull();
    expect(deriveProjectId({})).toBeNull();
    for (const input of [{ name: "x".repeat(300) }, { name: "...dots first" }, { name: "日本語 project" }, { repoUrl: "github.com/-/..x" }]) {
      const id = deriveProjectId(input);
      expect(id, JSON.stringify(input)).not.toBeNull();
      expect(ProjectId.safeParse(id).success, id!).toBe(true);
    }
  });
});
