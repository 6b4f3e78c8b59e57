import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { listMemberships } from "@/lib/auth/manage-users";
import { resolveCaller, type Caller } from "@/lib/auth/resolve-caller";
import { countOpenProposals } from "@/lib/review/count-open-proposals";
import { readModelCatchUp, type ReadModelCatchUp } from "@/lib/read-model/ensure-read-model";
import { getStoreStatus } from "@/lib/store/read-store";
import { Nav } from "./_components/nav";
import { SignOutButton } from "./_components/sign-out-button";
import { getAuth, getConfig, getDatabase } from "./_server/context";
import "./globals.css";

const DESCRIPTION = "The team hub for Claude Code memory";

// Built per request: the Open Graph image needs an absolute address, the configured public one.
export function generateMetadata(): Metadata {
  return {
    metadataBase: new URL(getConfig().publicUrl),
    // Each page names itself (WCAG 2.4.2: tabs and history told apart), e.g. "Review · teammem".
    title: { template: "%s · teammem", default: "teammem" },
    description: DESCRIPTION,
    // favicon.ico and brand/ are let through the sign-in proxy without a session (proxy.ts).
    icons: { icon: [{ url: "/favicon.ico", sizes: "16x16 32x32 48x48" }, { url: "/brand/logo.svg", type: "image/svg+xml" }] },
    openGraph: {
      type: "website",
      siteName: "teammem",
      title: "teammem",
      description: DESCRIPTION,
      images: [{ url: "/brand/og.png", width: 1200, height: 630, alt: "teammem: the team hub for Claude Code memory" }],
    },
  };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Only for the header; each page checks access itself (layouts are not re-run on navigation).
  const caller = await getAuth()
    .then((auth) => headers().then((requestHeaders) => resolveCaller(auth, getDatabase(), requestHeaders)))
    .catch(() => null);
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <a href="/" className="brand">
            <img src="/brand/logo.svg" alt="" width={22} height={22} />
            team<span>mem</span>
          </a>
          {caller && <Nav openReviews={await openReviewCount(caller)} />}
          {caller && (
            <div className="user">
              <span className="muted" data-testid="signed-in-as">{caller.name}{caller.isAdmin ? " (admin)" : ""}</span>
              <SignOutButton />
            </div>
          )}
        </header>
        {caller && <StoreUnreachable since={getStoreStatus(getConfig()).unreachableSince} />}
        {caller && <ReadModelCatchingUp catchUp={readModelCatchUp(getConfig())} />}
        <main className="content">{children}</main>
      </body>
    </html>
  );
}

async function openReviewCount(caller: Caller): Promise<number> {
  const led = (await listMemberships(getDatabase(), caller)).filter((membership) => membership.role === "lead");
  return led.length === 0 ? 0 : countOpenProposals(getDatabase(), led.map((membership) => membership.projectId));
}

/** While the read model catches up with a large push, pages show the commit it already has. */
function ReadModelCatchingUp({ catchUp }: { catchUp: ReadModelCatchUp | null }) {
  if (!catchUp) return null;
  return (
    <p className="panel store-banner" role="status" data-testid="read-model-catching-up">
      New commits arrived in the team store; teammem is reading them (since {catchUp.since.toISOString().replace("T", " ").slice(11, 19)} UTC).
      Pages show commit {catchUp.recorded.slice(0, 8)} until then.
    </p>
  );
}

/** While the team store cannot be reached, pages show its last known state and say so. */
function StoreUnreachable({ since }: { since: Date | null }) {
  if (!since) return null;
  return (
    <p className="panel error store-banner" role="status" data-testid="store-unreachable">
      The team store cannot be reached since {since.toISOString().replace("T", " ").slice(0, 16)} UTC. Pages show the last known memories;
      approvals end as &quot;commit failed&quot; and can be approved again once it is back.
    </p>
  );
}
