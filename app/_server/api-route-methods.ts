import { readdir } from "node:fs/promises";
import path from "node:path";
import type { ApiRouteMethodsOf } from "@/lib/http/answer-unknown-method";
import { REFUSES_METHOD } from "./other-methods";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

type ApiRoute = { segments: string[]; methods: string[] };

/**
 * The methods each app/api route file takes, read from the files themselves (an export that is
 * not an other-methods refusal), and a lookup by path that prefers routes as Next.js does: a
 * fixed segment over `[id]`, `[id]` over `[...rest]`. A path only the top catch-all serves names
 * no endpoint (null). The route files load on the first lookup: for scripts/serve.ts's answer to
 * methods Next.js does not dispatch, rare enough not to cost every start-up.
 */
export function createApiRouteMethods(apiDir: string): ApiRouteMethodsOf {
  let routes: Promise<ApiRoute[]> | null = null;
  return async (pathname) => {
    routes ??= loadApiRoutes(apiDir);
    const segments = pathname.split("/").filter(Boolean).slice(1).map(decodeSegment);
    const best = bestMatch(await routes, segments);
    return best && !(best.segments.length === 1 && best.segments[0]!.startsWith("[...")) ? best.methods : null;
  };
}

async function loadApiRoutes(apiDir: string): Promise<ApiRoute[]> {
  const files = (await readdir(apiDir, { recursive: true })).filter((file) => path.basename(file) === "route.ts");
  return Promise.all(
    files.map(async (file) => {
      const routeModule = (await import(path.join(apiDir, file))) as Record<string, (Record<symbol, unknown> & object) | undefined>;
      const methods = METHODS.filter((method) => routeModule[method] && !routeModule[method][REFUSES_METHOD]);
      return { segments: path.dirname(file).split(path.sep).filter((part) => part !== "."), methods };
    }),
  );
}

function bestMatch(routes: ApiRoute[], segments: string[]): ApiRoute | null {
  let best: { route: ApiRoute; rank: number[] } | null = null;
  for (const route of routes) {
    const rank = rankMatch(route.segments, segments);
    if (rank && (!best || compareRanks(rank, best.rank) < 0)) best = { route, rank };
  }
  return best?.route ?? null;
}

// One number per pattern segment, lower is more specific: fixed 0, [name] 1, [...name] 2.
function rankMatch(pattern: string[], segments: string[]): number[] | null {
  const rank: number[] = [];
  for (const [index, part] of pattern.entries()) {
    if (part.startsWith("[...")) return segments.length > index ? [...rank, 2] : null;
    if (index >= segments.length) return null;
    if (part.startsWith("[")) rank.push(1);
    else if (part === segments[index]) rank.push(0);
    else return null;
  }
  return pattern.length === segments.length ? rank : null;
}

function compareRanks(a: number[], b: number[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index++) if (a[index] !== b[index]) return a[index]! - b[index]!;
  return b.length - a.length;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
