import type { GitIdentity } from "../store/git";

/** The demo team: a project, its lead and two members. Emails use a reserved domain. */
export const DEMO_PROJECT = {
  id: "acme-checkout",
  name: "Acme Checkout",
  remote: "github.com/acme/checkout",
  /** Where the demo member's checkout "lives"; it names the private memory folder (C1). */
  localPath: "/home/omar/src/acme-checkout",
};

export const DEMO_MEMBERS: Record<"lena" | "omar" | "priya", GitIdentity & { role: "lead" | "member" }> = {
  lena: { name: "Lena Park", email: "lena@acme.example", role: "lead" },
  omar: { name: "Omar Haddad", email: "omar@acme.example", role: "member" },
  priya: { name: "Priya Nair", email: "priya@acme.example", role: "member" },
};

/** The member whose Claude Code home the embedded dashboard shows. */
export const DEMO_HOME_MEMBER = "omar" as const;
