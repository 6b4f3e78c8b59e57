import { describe, expect, it } from "vitest";
import { isToolInUseReference, toolSearchWords, type ToolRuleMemory } from "@/lib/recall/is-tool-in-use-reference";

const reference = (description: string, path = "team/reference_x.md", name: string | null = null): ToolRuleMemory => ({ path, name, description, type: "reference" });

describe("isToolInUseReference (R2)", () => {
  it("drops a usage reference that names a tool in use, in its description, name or file name", () => {
    expect(isToolInUseReference(reference("kubectl commands for contexts prod-eu and staging"), ["kubectl"])).toBe(true);
    expect(isToolInUseReference(reference("Contexts and namespaces: the cheat sheet", "team/reference_kubectl.md"), ["kubectl"])).toBe(true);
    expect(isToolInUseReference(reference("Contexts and namespaces", "team/reference_kubectl_usage.md"), ["kubectl"])).toBe(true);
    expect(isToolInUseReference(reference("Where dashboards live", "r.md", "Grafana MCP usage"), ["mcp__grafana__search_dashboards"])).toBe(true);
    expect(isToolInUseReference(reference("Use mcp__grafana__search_dashboards to find dashboards by title"), ["mcp__grafana__search_dashboards"])).toBe(true);
    expect(isToolInUseReference(reference("How to query Prometheus through the Grafana MCP, with examples"), ["mcp__grafana__query_prometheus"])).toBe(true);
  });

  it("keeps a reference stating the team's facts about the tool: which service, board or context (bug-04)", () => {
    // R2 skips usage documentation; these answer questions the tool itself cannot.
    const pagerduty = reference("PagerDuty service payments-core pages the payments on-call", "reference_pagerduty_payments.md", "PagerDuty payments-core");
    expect(isToolInUseReference(pagerduty, ["mcp__pagerduty__list_incidents"])).toBe(false);
    const board = reference("Grafana board checkout-p99 tracks payment latency", "reference_grafana_checkout_p99.md", "Grafana checkout-p99 board");
    expect(isToolInUseReference(board, ["mcp__grafana__query_prometheus"])).toBe(false);
    expect(isToolInUseReference(reference("kubectl contexts prod-eu and staging"), ["kubectl"])).toBe(false);
  });

  it("keeps warnings, gotchas and known issues about the tool", () => {
    for (const description of [
      "Gotcha: kubectl falls back to prod after a VPN reconnect",
      "Known issue: kubectl port-forward drops after 5 minutes",
      "Warning: never run kubectl delete without --context",
      "kubectl apply is flaky on the staging cluster",
    ]) {
      expect(isToolInUseReference(reference(description), ["kubectl"])).toBe(false);
    }
  });

  it("keeps anything that is not a reference, and references to other tools", () => {
    expect(isToolInUseReference({ ...reference("kubectl contexts"), type: "feedback" }, ["kubectl"])).toBe(false);
    expect(isToolInUseReference(reference("psql on the read replica"), ["kubectl"])).toBe(false);
    expect(isToolInUseReference(reference("kubectlish wrapper scripts"), ["kubectl"])).toBe(false); // whole words only
    expect(isToolInUseReference(reference("kubectl contexts"), [])).toBe(false);
  });

  it("knows an MCP tool by its server name, including servers with underscores", () => {
    expect(toolSearchWords(["mcp__linear__create_issue", "mcp__claude_ai_Notion__search", "Bash", "ls"])).toEqual(["linear", "claude ai Notion", "Bash"]);
  });
});
