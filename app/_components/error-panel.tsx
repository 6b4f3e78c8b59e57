import type { ShownError } from "../_server/http";

/** A failure the user can act on: what went wrong and what to change. */
export function ErrorPanel({ error }: { error: ShownError }) {
  return (
    <div className="panel error" role="alert">
      <strong>Could not load this page</strong>
      <p>{error.message}</p>
      <p className="muted">Code {error.code}. Run <code>npx teammem doctor</code> for a full check.</p>
    </div>
  );
}
