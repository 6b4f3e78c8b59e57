import type { ProjectOverview } from "./overview-types";

/** One line of "what needs my attention": `act` asks for something, `note` is worth knowing. */
export type AttentionItem = { tone: "act" | "note"; text: string; href: string | null };

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * The few sentences at the top of a project's Overview, most pressing first: proposals waiting
 * (and those blocked), stale memories, checks that could not run, agents not using recall.
 * Empty when nothing needs anyone.
 */
export function listAttentionItems(overview: ProjectOverview): AttentionItem[] {
  const items: AttentionItem[] = [];
  const project = encodeURIComponent(overview.projectId);
  const { review, freshness, memories, recall } = overview;
  if (review.openCount > 0) {
    const oldest = review.oldestOpen ? `, the oldest waiting ${plural(review.oldestOpen.waitingDays, "day", "days")}` : "";
    items.push({ tone: "act", text: `${plural(review.openCount, "proposal is", "proposals are")} open for review${oldest}.`, href: `/review?project=${project}` });
  }
  const blocked = review.openByState.find((row) => row.state === "blocked_secret")?.count ?? 0;
  if (blocked > 0) items.push({ tone: "act", text: `${plural(blocked, "proposal is", "proposals are")} blocked by a secret.`, href: `/review?project=${project}&check=blocked` });
  if (freshness.status === "checked" && freshness.totals.stale > 0) {
    items.push({ tone: "act", text: `${plural(freshness.totals.stale, "memory is", "memories are")} stale.`, href: `/memories?project=${project}` });
  }
  if (freshness.status === "not-checked") items.push({ tone: "note", text: `Freshness not checked: ${freshness.reason}`, href: null });
  if (freshness.status === "checked" && freshness.codeRepoProblem) items.push({ tone: "note", text: `Code citations not checked: ${freshness.codeRepoProblem}`, href: `/projects/${project}` });
  if (memories.total === 0) items.push({ tone: "note", text: "No team memories yet: members propose them, a lead approves them.", href: `/projects/${project}` });
  if (recall && recall.callsLast30Days === 0 && memories.total > 0) items.push({ tone: "note", text: "No recall in the last 30 days: agents are not being given team memory.", href: "/recall" });
  return items;
}
