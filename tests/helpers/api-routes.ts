import { readdirSync } from "node:fs";
import path from "node:path";

export type RouteHandler = ((request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>) & Record<symbol, unknown>;
export type LoadedRoute = { key: string; handler: RouteHandler; rule: { kind: string; permission?: string } | undefined };

function listRouteFiles(dir = "app/api"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listRouteFiles(full) : entry.name === "route.ts" ? [full] : [];
  });
}

/**
 * Every route handler under app/api as "METHOD /api/…pattern" with its declared access rule, read
 * from the files, so a new route (or method) shows up in the matrices without being listed.
 * Catch-all routes (`[...name]`) come last: Next.js prefers every more specific route to them, and
 * a dispatcher taking the first match must too.
 */
export async function loadApiRoutes(): Promise<LoadedRoute[]> {
  const { ROUTE_ACCESS } = await import("@/app/_server/guard");
  const { REFUSES_METHOD } = await import("@/app/_server/other-methods");
  const routes: LoadedRoute[] = [];
  const files = listRouteFiles();
  const isCatchAll = (file: string) => file.includes("[...");
  for (const file of [...files.filter((file) => !isCatchAll(file)), ...files.filter(isCatchAll)]) {
    const module = (await import(path.resolve(file))) as Record<string, unknown>;
    const pattern = "/" + path.dirname(file).split(path.sep).join("/");
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      const handler = module[method] as RouteHandler | undefined;
      // A method the file does not take answers 405 (app/_server/other-methods.ts): not a route.
      if (handler && !handler[REFUSES_METHOD]) routes.push({ key: `${method} ${pattern.replace(/^\/app/, "")}`, handler, rule: handler[ROUTE_ACCESS] as LoadedRoute["rule"] });
    }
  }
  return routes;
}
