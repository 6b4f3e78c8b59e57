import Link from "next/link";

/** What an empty project needs before memories arrive, with the links and commands to do it. */
export function NextSteps({ projectId, publicUrl }: { projectId: string; publicUrl: string }) {
  const projectHref = `/projects/${encodeURIComponent(projectId)}`;
  const proposeCommand =
    `curl -X POST ${publicUrl}/api/projects/${projectId}/proposals \\\n` +
    `  -H "Authorization: Bearer $TEAMMEM_TOKEN" -H "content-type: application/json" \\\n` +
    `  -d '{"path": "project_first_decision.md", "content": "---\\nname: …\\ndescription: …\\ntype: project\\n---\\n…"}'`;
  return (
    <section className="panel" data-testid="next-steps" aria-label="Next steps">
      <strong>No team memories yet. To get the first ones:</strong>
      <ol>
        <li>A lead or an admin adds the team on <Link href={`${projectHref}#members`}>the project&apos;s page</Link> (accounts are created on <Link href="/settings">Settings</Link> by an admin).</li>
        <li>Each member creates an API token for <code>{projectId}</code> on <Link href="/settings">Settings</Link>.</li>
        <li>On their machine: <code>npx teammem login --server {publicUrl}</code> (paste the token), then <code>npx teammem whoami</code> and <code>npx teammem projects list</code>.</li>
        <li>Propose memories: in a checkout of the project, <code>npx teammem sync</code> sends what members add to <code>memory/team/</code> and <code>npx teammem propose FILE</code> offers a private memory; scripts can use the API:<pre><code>{proposeCommand}</code></pre></li>
        <li>A lead approves them on <Link href="/review">Review</Link>; approved memories appear in <Link href={`/memories?project=${encodeURIComponent(projectId)}`}>Memories</Link>.</li>
      </ol>
    </section>
  );
}
