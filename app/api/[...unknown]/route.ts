import { AppError } from "@/lib/errors";
import { access, route } from "../../_server/guard";

// Any /api path no other route file claims (Next.js prefers every more specific route over a
// catch-all): answered as every API error is, in JSON, instead of the dashboard's HTML 404 page.
// Public, and the same for everyone, so it reveals nothing; the path is not echoed back.
const unknownPath = route(access.public, async () => {
  throw new AppError("NOT_FOUND", "There is no such API endpoint; README.md lists them.");
});

export const GET = unknownPath;
export const POST = unknownPath;
export const PUT = unknownPath;
export const PATCH = unknownPath;
export const DELETE = unknownPath;
