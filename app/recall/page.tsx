import type { Metadata } from "next";
import { listMemberships } from "@/lib/auth/manage-users";
import { listOverseenProjects } from "@/lib/overview/list-overseen-projects";
import { listRecallEvents, type RecallEventSummary } from "@/lib/recall/recall-project-memories";
import { getConfig, getDatabase } from "../_server/context";
import { requirePageCaller } from "../_server/page-caller";
import { RecallPlayground } from "./recall-playground";

export const metadata: Metadata = { title: "Recall" };

export const dynamic = "force-dynamic";

export default async function RecallPage() {
  const caller = await requirePageCaller("/recall");
  const config = getConfig();
  const db = getDatabase();
  const memberships = (await listMemberships(db, caller)).filter((membership) => membership.role !== "viewer");
  // The log's readers by the API's rule (leads and admins), not by role in the project.
  const overseen = await listOverseenProjects(db, caller);
  const logs = await Promise.all(
    overseen.map(async (project) => ({
      project,
      events: await listRecallEvents(db, project.projectId, { limit: 20 }),
      tries: await listRecallEvents(db, project.projectId, { limit: 10, source: "playground" }),
    })),
  );

  return (
    <>
      <h1>Recall</h1>
      <p className="lead">
        Try a prompt and see which memories (up to 5) an agent would be given, and why. Selector:{" "}
        {config.anthropicApiKey ? <>the model <code>{config.recallModel}</code>, with the local ranker as fallback</> : <>the local ranker (set ANTHROPIC_API_KEY to use a model)</>}.
        {" "}Tries here are not logged as what agents were given and count in no statistics.
      </p>
      {memberships.length === 0 ? (
        <div className="panel empty">Recall needs the member or lead role in a project; a lead can give it to you.</div>
      ) : (
        <RecallPlayground projects={memberships.map((membership) => ({ id: membership.projectId, name: membership.projectName }))} />
      )}
      {logs.map(({ project, events, tries }) => (
        <section key={project.projectId}>
          <h2>What agents were given in {project.projectName}</h2>
          {events.length === 0 ? <p className="muted">No recall requests yet.</p> : <RecallEventTable events={events} testId="recall-events" />}
          {tries.length > 0 && (
            <details>
              <summary>Tries on this page in {project.projectName}, not given to any agent (the newest {tries.length})</summary>
              <RecallEventTable events={tries} testId="recall-tries" />
            </details>
          )}
        </section>
      ))}
    </>
  );
}

function RecallEventTable({ events, testId }: { events: RecallEventSummary[]; testId: string }) {
  return (
    <table data-testid={testId}>
      <thead><tr><th>When</th><th>Who</th><th>Selector</th><th>Selected</th><th>Latency</th></tr></thead>
      <tbody>
        {events.map((event, index) => (
          <tr key={index}>
            <td className="nowrap">{event.at.toISOString().replace("T", " ").slice(0, 19)}</td>
            <td>{event.userName}</td>
            <td>{event.selector}{event.fellBack ? " (fallback)" : ""}</td>
            <td>{event.selected.length ? event.selected.join(", ") : <span className="muted">nothing</span>}</td>
            <td>{event.latencyMs} ms</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
