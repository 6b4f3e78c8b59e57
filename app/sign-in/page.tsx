import { SignInForm } from "./sign-in-form";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SignInPage({ searchParams }: Props) {
  const next = (await searchParams).next;
  // Only same-site paths: a crafted ?next=https://evil.example must not redirect away.
  const returnTo = typeof next === "string" && next.startsWith("/") && !next.startsWith("//") ? next : "/";
  return (
    <div className="signin">
      <h1>Sign in</h1>
      <p className="lead">teammem needs an account, also on this machine. The first <code>npm start</code> printed the admin&apos;s and the demo team&apos;s one-time passwords.</p>
      <SignInForm returnTo={returnTo} />
    </div>
  );
}
