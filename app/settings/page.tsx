import type { Metadata } from "next";
import { listApiTokens } from "@/lib/auth/manage-api-tokens";
import { listMemberships, listProjectMembers, listUsers } from "@/lib/auth/manage-users";
import { listVisibleProjectIds } from "@/lib/auth/permissions";
import { diagnose } from "@/lib/setup/diagnose";
import { displayRemote } from "@/lib/store/git";
import { getConfig, getDatabase } from "../_server/context";
import { requirePageCaller } from "../_server/page-caller";
import { MemberManager } from "./member-manager";
import { PasswordForm } from "./password-form";
import { TokenManager } from "./token-manager";
import { UserAdmin } from "./user-admin";

export const metadata: Metadata = { title: "Settings" };

export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const caller = await requirePageCaller("/settings");
  const db = getDatabase();
  // A token may be scoped to what POST /api/tokens accepts: the caller's projects, every project for an admin.
  const [memberships, tokens, tokenProjectIds] = await Promise.all([listMemberships(db, caller), listApiTokens(db, caller.userId), listVisibleProjectIds(db, caller)]);
  const ledProjects = memberships.filter((membership) => membership.role === "lead");
  const membersByProject = await Promise.all(ledProjects.map(async (project) => ({ project, members: await listProjectMembers(db, project.projectId) })));

  return (
    <>
      <h1>Settings</h1>
      <p className="lead">Signed in as {caller.name} ({caller.email}){caller.isAdmin ? ", admin" : ""}.</p>

      <h2>Your password</h2>
      <PasswordForm />

      <h2>Your projects</h2>
      {memberships.length === 0 ? (
        <p className="muted">No roles yet. A project lead or an admin can add you.</p>
      ) : (
        <ul>{memberships.map((membership) => <li key={membership.projectId}>{membership.projectName} — {membership.role}</li>)}</ul>
      )}

      <h2>API tokens</h2>
      <p className="muted">
        For the CLI and for agents calling the API. A token acts as you, only in the projects you choose{caller.isAdmin ? ", and as an admin on the admin routes (accounts, projects)" : ""}.
      </p>
      <TokenManager
        initialTokens={JSON.parse(JSON.stringify(tokens))}
        projectIds={tokenProjectIds}
        noProjectsMessage={
          caller.isAdmin
            ? "A token is scoped to at least one project, and there is none yet: create one on Projects first."
            : "You have no role in a project yet, so there is nothing a token could reach. A project's lead or an admin can add you."
        }
      />

      {membersByProject.map(({ project, members }) => (
        <section key={project.projectId}>
          <h2>Members of {project.projectName}</h2>
          <MemberManager projectId={project.projectId} initialMembers={members} />
        </section>
      ))}

      {caller.isAdmin && (
        <>
          <h2>Accounts</h2>
          <UserAdmin initialUsers={(await listUsers(db)).map(({ id, email, name, isAdmin }) => ({ id, email, name, isAdmin }))} />
          <Configuration />
        </>
      )}
    </>
  );
}

async function Configuration() {
  const config = getConfig();
  const checks = await diagnose(config);
  const rows: [string, string, string][] = [
    ["Data folder", "TEAMMEM_DATA_DIR", config.dataDir],
    ["Database", "DATABASE_URL", config.sqliteFile ? `SQLite: ${config.sqliteFile}` : "PostgreSQL (from DATABASE_URL)"],
    ["Team store", "TEAMMEM_STORE_REMOTE", `${displayRemote(config.storeRemote)}${config.isEmbeddedStore ? " (embedded bare repository)" : ""}`],
    ["Claude home", "TEAMMEM_CLAUDE_HOME", config.claudeHome ? `${config.claudeHome} (owner: ${config.claudeHomeOwner ?? "nobody"})` : "not set (private memory not shown)"],
    ["Model key", "ANTHROPIC_API_KEY", config.anthropicApiKey ? "set" : "not set: recall uses the local ranker"],
    ["Model endpoint", "ANTHROPIC_BASE_URL", config.anthropicBaseUrl ?? "default"],
    ["Recall model", "TEAMMEM_RECALL_MODEL", config.recallModel],
    ["Demo team", "TEAMMEM_DEMO", config.isDemoEnabled ? "on" : "off"],
    ["Public address", "TEAMMEM_PUBLIC_URL", config.publicUrl],
    ["Session secret", "TEAMMEM_AUTH_SECRET", config.authSecret ? "set" : "kept in the data folder"],
    ["Server", "HOST / PORT", `${config.host}:${config.port}`],
  ];
  return (
    <>
      <h2>Configuration</h2>
      <p className="muted">From environment variables (see README); restart after changing one.</p>
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
