import type { NextConfig } from "next";

// No serverExternalPackages needed: Next's built-in list already keeps @prisma/client, prisma,
// better-sqlite3 and pg external, and the generated client under ./generated/prisma bundles fine.
const nextConfig: NextConfig = {
  poweredByHeader: false,
  // simple-git spawns git; keep it (and the SDK) out of the bundle so their dynamic requires work.
  serverExternalPackages: ["simple-git", "gray-matter"],
};

export default nextConfig;
