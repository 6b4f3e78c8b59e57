import type { NextConfig } from "next";
import { FRAME_DENY_HEADERS } from "./lib/http/frame-deny-headers";

// No serverExternalPackages needed: Next's built-in list already keeps @prisma/client, prisma,
// better-sqlite3 and pg external, and the generated client under ./generated/prisma bundles fine.
const nextConfig: NextConfig = {
  poweredByHeader: false,
  // simple-git spawns git; keep it (and the SDK) out of the bundle so their dynamic requires work.
  serverExternalPackages: ["simple-git", "gray-matter"],
  // On every path, pages, API answers and 404s alike; the proxy (proxy.ts) skips /api and
  // /sign-in, so these live here and not there.
  async headers() {
    return [{ source: "/:path*", headers: [...FRAME_DENY_HEADERS] }];
  },
};

export default nextConfig;
