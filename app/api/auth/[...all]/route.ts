import { access, route } from "../../../_server/guard";
import { getAuth } from "../../../_server/context";

// better-auth's own endpoints: sign-in (rate limited), sign-out, session. Public by nature.
const delegate = route(access.public, async ({ request }) => (await getAuth()).handler(request));

export const GET = delegate;
export const POST = delegate;
