import { createHash } from "node:crypto";

/** The id git gives a file's bytes (`git hash-object`): how a member's copy is compared with the store's blob. */
export function gitBlobId(content: string | Buffer): string {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}
