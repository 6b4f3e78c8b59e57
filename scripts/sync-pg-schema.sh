#!/usr/bin/env bash
# Regenerates prisma/postgres/schema.prisma from the SQLite schema: same models, other provider.
set -euo pipefail
cd "$(dirname "$0")/.."
{
  echo "// PostgreSQL schema, GENERATED from prisma/schema.prisma by scripts/sync-pg-schema.sh: do not edit."
  sed -e '1,2d' \
      -e 's#"../generated/prisma"#"../../generated/prisma-pg"#' \
      -e 's#"sqlite"#"postgresql"#' \
      -e 's#file:./dev.db#postgresql://unused:unused@127.0.0.1:5432/unused#' \
      prisma/schema.prisma
} > prisma/postgres/schema.prisma
