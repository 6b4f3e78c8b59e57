import { checkedJsonRequest } from "../../../_server/body";
import { access, route } from "../../../_server/guard";
import { getAuth } from "../../../_server/context";
import { otherMethodsThan } from "../../../_server/other-methods";

// better-auth's own endpoints: sign-in (rate limited), sign-out, session. Public by nature. Its
// body is checked first as every other route's is: better-auth answers a lone surrogate in a
// JSON string (the database refuses it) with an empty 500.
const delegate = route(access.public, async ({ request }) => (await getAuth()).handler(await checkedJsonRequest(request)));

export const GET = delegate;
export const POST = delegate;

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsThan("GET", "POST");
