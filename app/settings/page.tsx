import { diagnose, type Check } from "@/lib/setup/diagnose";
import { displayRemote } from "@/lib/store/git";
import { getConfig } from "../_server/context";

export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const config = getConfig();
  const checks: Check[] = await diagnose(config);
  const rows: [string, string, string][] = [
    ["Data folder", "TEAMMEM_DATA_DIR", config.dataDir],
    ["Database", "DATABASE_URL", config.sqliteFile ? `SQLite: ${config.sqliteFile}` : "PostgreSQL (from DATABASE_URL)"],
    ["Team store", "TEAMMEM_STORE_REMOTE", `${displayRemote(config.storeRemote)}${config.isEmbeddedStore ? " (embedded bare repository)" : ""}`],
    ["Claude home", "TEAMMEM_CLAUDE_HOME", config.claudeHome ?? "not set (private memory not shown)"],
    ["Model key", "ANTHROPIC_API_KEY", config.anthropicApiKey ? "set" : "not set: recall uses the local ranker"],
    ["Model endpoint", "ANTHROPIC_BASE_URL", config.anthropicBaseUrl ?? "default"],
    ["Recall model", "TEAMMEM_RECALL_MODEL", config.recallModel],
    ["Demo team", "TEAMMEM_DEMO", config.isDemoEnabled ? "on" : "off"],
    ["Server", "HOST / PORT", `${config.host}:${config.port}`],
  ];
  return (
    <>
      <h1>Settings</h1>
      <p className="lead">Configuration comes from environment variables (see README); restart after changing one.</p>
      <div className="panel">
        <dl className="settings">
          {rows.map(([label, variable, value]) => (
            <div key={label} style={{ display: "contents" }}>
              <dt>{label} <code>{variable}</code></dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </div>
      <h2>Health</h2>
      <table data-testid="health-table">
        <thead><tr><th>Check</th><th>Status</th><th>Detail</th></tr></thead>
        <tbody>
          {checks.map((check) => (
            <tr key={check.name}>
              <td>{check.name}</td>
              <td className={`status-${check.status}`}>{check.status}</td>
              <td>{check.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
