/**
 * One value per server process, whichever copy of a module asks for it. Next.js bundles a module
 * once per layer (API routes, pages, `instrumentation.ts`), and each copy has its own
 * module-level variables: a cache filled by the start-up warm-up was not the one the API routes
 * read, and at 10,000 memories each of three copies built its own duplicate finder (~1.5 s and
 * tens of MB each). What must be shared lives on `globalThis` under a registered symbol, as the
 * database client does (lib/db/client.ts). Values shared this way must not rely on `instanceof`
 * across copies (lib/errors.ts brands AppError for that).
 */
export function processWide<T>(name: string, create: () => T): T {
  const shared = globalThis as unknown as Record<symbol, unknown>;
  const key = Symbol.for(`teammem.${name}`);
  if (!(key in shared)) shared[key] = create();
  return shared[key] as T;
}
