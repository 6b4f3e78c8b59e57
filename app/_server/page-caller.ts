import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { resolveCaller, type Caller } from "@/lib/auth/resolve-caller";
import { getAuth, getDatabase } from "./context";

/** For pages: the signed-in user, or a redirect to sign-in. Every page calls it first. */
export async function requirePageCaller(returnTo: string): Promise<Caller> {
  const caller = await resolveCaller(await getAuth(), getDatabase(), await headers()).catch(() => null);
  if (!caller) redirect(`/sign-in?next=${encodeURIComponent(returnTo)}`);
  return caller;
}
