import type { NextConfig } from "next";

// No page may be framed by another site: a framed /review/<id> let a hostile page (a same-site
// one gets the session cookie) make a lead click Approve. Both headers, for browsers that know
// only one of them. On every path, pages, API answers and 404s alike; the proxy (proxy.ts) skips
// /api and /sign-in, so these live here and not there.
const FRAME_DENY_HEADERS = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
];

// No serverExternalPackages needed: Next's built-in list already keeps @prisma/client, prisma,
// better-sqlite3 and pg external, and the generated client under ./generated/prisma bundles fine.
const nextConfig: NextConfig = {
  poweredByHeader: false,
  // simple-git spawns git; keep it (and the SDK) out of the bundle so their dynamic requires work.
  serverExternalPackages: ["simple-git", "gray-matter"],
  async headers() {
    return [{ source: "/:path*", headers: FRAME_DENY_HEADERS }];
  },
};

export default nextConfig;
