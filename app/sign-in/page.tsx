import type { Metadata } from "next";
import { safeReturnPath } from "@/lib/auth/safe-return-path";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SignInPage({ searchParams }: Props) {
  // Only paths on the dashboard: a crafted ?next= (https://, //, /\, /<TAB>/ …) must not redirect away.
  const returnTo = safeReturnPath((await searchParams).next);
  return (
    <div className="signin">
      <h1>Sign in</h1>
      <p className="lead">teammem needs an account, also on this machine. The first <code>npm start</code> printed the admin&apos;s and the demo team&apos;s one-time passwords.</p>
      <SignInForm returnTo={returnTo} />
    </div>
  );
}
