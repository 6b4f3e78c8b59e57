import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { AppError } from "../errors";
import { scanSecrets } from "../secrets/scan-secrets";
import type { PrismaClient } from "../../generated/prisma/client";

const SEALED_PREFIX = "sealed:v1:";

/**
 * A proposal that arrives with a credential must stay retrievable (nothing is lost; the reviewer
 * redacts or rejects it) but must not sit in the database in clear. This Prisma extension seals
 * such revision content with the instance secret (better-auth's symmetric encryption) on every
 * write and opens it on every read, so lib/review never sees the difference.
 */
export function sealSecretRevisions<Client extends PrismaClient>(client: Client, key: string | null) {
  const seal = async (content: unknown) => {
    if (typeof content !== "string" || scanSecrets(content).length === 0) return content;
    if (!key) throw new AppError("CONFIG_INVALID", "A proposal holds a secret but there is no instance secret to protect it: start teammem with `npm start` or set TEAMMEM_AUTH_SECRET.");
    return SEALED_PREFIX + (await symmetricEncrypt({ key, data: content }));
  };
  const open = async <Row>(row: Row): Promise<Row> => {
    const record = row as { content?: unknown } | null;
    if (!record || typeof record.content !== "string" || !record.content.startsWith(SEALED_PREFIX)) return row;
    return { ...record, content: await openSealedContent(record.content, key) } as Row;
  };
  return client.$extends({
    query: {
      proposalRevision: {
        async create({ args, query }) {
          args.data = { ...args.data, content: (await seal(args.data.content)) as string | null };
          return open(await query(args));
        },
        async findUnique({ args, query }) {
          return open(await query(args));
        },
        async findFirst({ args, query }) {
          return open(await query(args));
        },
        async findMany({ args, query }) {
          return Promise.all((await query(args)).map((row) => open(row)));
        },
      },
    },
  });
}

/** A revision's content as written, opened when sealed: for reads that bypass Prisma (lib/db/direct-reads.ts). */
export async function openSealedContent(content: string | null, key: string | null): Promise<string | null> {
  if (content === null || !content.startsWith(SEALED_PREFIX)) return content;
  if (!key) throw new AppError("CONFIG_INVALID", "A sealed proposal cannot be opened without the instance secret (TEAMMEM_AUTH_SECRET or the data folder's auth-secret).");
  try {
    return await symmetricDecrypt({ key, data: content.slice(SEALED_PREFIX.length) });
  } catch (cause) {
    // The cipher only says "invalid tag": the content was sealed under another instance secret.
    throw new AppError(
      "CONFIG_INVALID",
      "This proposal's content is sealed with a different instance secret than this server's, so it cannot be opened: " +
        "restore the data folder's auth-secret from its backup, or set the same TEAMMEM_AUTH_SECRET as the instance that sealed it.",
      { cause },
    );
  }
}

/** Whether `key` opens sealed content: the database's own evidence of which instance secret sealed it. */
export async function opensSealedContent(content: string, key: string): Promise<boolean> {
  return openSealedContent(content, key).then(
    () => true,
    () => false,
  );
}

/** Sealed content starts with this; a query can find it with `LIKE 'sealed:v1:%'`. */
export const SEALED_CONTENT_PATTERN = `${SEALED_PREFIX}%`;
