import { requirePageCaller } from "../_server/page-caller";

export const dynamic = "force-dynamic";

export default async function RecallPage() {
  await requirePageCaller("/recall");
  return (
    <>
      <h1>Recall</h1>
      <p className="lead">Try a prompt and see which memories (up to 5) an agent would be given, and why.</p>
      <div className="panel empty">
        The recall playground is not built yet. It will run the same selector as the API: the model
        when ANTHROPIC_API_KEY is set, otherwise the local ranker.
      </div>
    </>
  );
}
