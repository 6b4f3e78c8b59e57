import { requirePageCaller } from "../_server/page-caller";

export const dynamic = "force-dynamic";

export default async function ReviewPage() {
  await requirePageCaller("/review");
  return (
    <>
      <h1>Review</h1>
      <p className="lead">Proposed memories wait here for a team lead before they enter the team store.</p>
      <div className="panel empty">
        The review queue is not built yet. When it is, each proposal will show its diff against the
        store, secret-scan findings, the scope verdict (personal memories stay personal) and near-duplicates,
        with approve, edit and reject.
      </div>
    </>
  );
}
