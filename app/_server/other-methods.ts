import { AppError } from "@/lib/errors";
import { errorResponse } from "./http";

const API_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type ApiMethod = (typeof API_METHODS)[number];

/** Marks the handlers below, so the route matrices in tests leave them out of "every route". */
export const REFUSES_METHOD = Symbol.for("teammem.refusesMethod");

export type MethodRefusal = ((request: Request) => Promise<Response>) & { [REFUSES_METHOD]: true };

/**
 * Handlers for the methods a route file does not take: a JSON 405 that names the methods it does
 * take, with the `Allow` header RFC 9110 asks for. Next.js answers a method a route file does not
 * export with an empty 405 and no `Allow`, which tells a client nothing. Exported beside the
 * file's own handlers: `export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET", "POST");`
 * (a test checks every route file exports all five).
 */
export function otherMethodsThan<Taken extends ApiMethod>(...taken: Taken[]): Record<Exclude<ApiMethod, Taken>, MethodRefusal> & { OPTIONS: () => Response } {
  // HEAD: Next.js answers it as GET (a refused GET refuses it too). OPTIONS is answered here:
  // Next.js's own would count the refusals among the methods taken.
  const allow = [...taken, ...(taken.includes("GET" as Taken) ? ["HEAD"] : []), "OPTIONS"].sort().join(", ");
  const refuse = Object.assign(
    async (request: Request) => {
      // Only a method Next.js knows reaches a handler: naming it echoes nothing a caller chose freely.
      const error = new AppError("METHOD_NOT_ALLOWED", `${request.method} is not supported here: this endpoint takes ${taken.join(", ")}.`);
      const response = errorResponse(error, `${request.method} ${new URL(request.url).pathname}`, request);
      if (response.status === 405) response.headers.set("allow", allow);
      return response;
    },
    { [REFUSES_METHOD]: true as const },
  );
  const refusals = Object.fromEntries(API_METHODS.filter((method) => !taken.includes(method as Taken)).map((method) => [method, refuse])) as Record<Exclude<ApiMethod, Taken>, MethodRefusal>;
  return { ...refusals, OPTIONS: () => new Response(null, { status: 204, headers: { allow } }) };
}
