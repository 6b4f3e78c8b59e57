import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { listProjectMembers } from "@/lib/auth/manage-users";
import { assertProjectPermission } from "@/lib/auth/permissions";
import { isAppError } from "@/lib/errors";
import { memoryAge } from "@/lib/memdir/age";
import { listMemberSyncs } from "@/lib/member-sync/list-member-syncs";
import { getProject } from "@/lib/projects/get-project";
import { ErrorPanel } from "../../_components/error-panel";
import { getConfig, getDatabase } from "../../_server/context";
import { toShownError } from "../../_server/http";
import { requirePageCaller } from "../../_server/page-caller";
import { MemberManager } from "../../settings/member-manager";
import { NextSteps } from "../next-steps";
import { ArchiveButton } from "./archive-button";
import { FirstLeadForm } from "./first-lead-form";
import { MemberSyncTable } from "./member-sync-table";
import { ProjectSettingsForm } from "./project-settings-form";

export const metadata: Metadata = { title: "Project · Projects" };

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export default async function ProjectPage({ params }: Props) {
  const { id } = await params;
  const caller = await requirePageCaller(`/projects/${encodeURIComponent(id)}`);
  const db = getDatabase();
  let loaded;
  try {
    const role = await assertProjectPermission(db, caller, id, "read");
    const [{ project }, members] = await Promise.all([getProject(getConfig(), db, id, { withMemories: false }), listProjectMembers(db, id)]);
    const canManage = role === "lead" || role === "admin";
    loaded = { project, members, canManage, memberSyncs: canManage ? (await listMemberSyncs(db, id)).members : [] };
  } catch (error) {
    // No role in the project and no such project look the same (README: 404): not-found.tsx says so.
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    return <ErrorPanel error={toShownError(error, "project")} />;
  }
  const { project, members, canManage, memberSyncs } = loaded;
  const memoriesHref = `/memories?project=${encodeURIComponent(project.id)}`;

  return (
    <>
      <h1>{project.name}</h1>
      <p className="lead">
        <code>{project.id}</code>
        {project.archivedAt && <> · <span className="badge" data-testid="archived-badge">archived</span></>}
        {" · "}
        {project.memoryCount > 0 && !project.archivedAt ? <Link href={memoriesHref}>{project.memoryCount} team memories</Link> : <>{project.memoryCount} team memories</>}
        {project.lastChangedAt && <>, last change {memoryAge(project.lastChangedAt)}</>}
        {" · "}
        {project.repoUrls.length > 0 ? project.repoUrls.join(", ") : "no repository URLs"}
      </p>
      {project.archivedAt && (
        <div className="panel" role="status">
          Archived on {project.archivedAt.toISOString().slice(0, 10)}: hidden from lists and closed to new proposals. Its memories and history stay in the team store.
          {canManage && <> <ArchiveButton projectId={project.id} projectName={project.name} isArchived /></>}
        </div>
      )}
      {project.memoryCount === 0 && !project.archivedAt && <NextSteps projectId={project.id} publicUrl={getConfig().publicUrl} />}

      {canManage && project.leadCount === 0 && (
        <>
          <h2>First lead</h2>
          <p className="muted">Nobody can review proposals here until the project has a lead. The account must exist (an admin creates it on <Link href="/settings">Settings</Link>).</p>
          <FirstLeadForm projectId={project.id} />
        </>
      )}

      <h2 id="members">Members</h2>
      {canManage ? (
        <MemberManager key={members.map((member) => `${member.userId}:${member.role}`).join(",")} projectId={project.id} initialMembers={members} />
      ) : (
        <ul>{members.map((member) => <li key={member.userId}>{member.name} — {member.role}</li>)}</ul>
      )}

      {canManage && (
        <>
          <h2 id="member-sync">Members&apos; sync</h2>
          <p className="muted">Where each member&apos;s <code>teammem sync</code> stands: a member marked behind holds an older store commit than the team has now.</p>
          <MemberSyncTable members={memberSyncs} />
          <h2>Settings</h2>
          <ProjectSettingsForm project={{ id: project.id, name: project.name, repoUrls: project.repoUrls, allowSelfApproval: project.allowSelfApproval, codeRepo: project.codeRepo, staleAfterDays: project.staleAfterDays }} />
          {!project.archivedAt && (
            <>
              <h2>Archive</h2>
              <p className="muted">An archived project leaves every list and picker and refuses new proposals; its history stays, and it can be unarchived here.</p>
              <ArchiveButton projectId={project.id} projectName={project.name} isArchived={false} />
            </>
          )}
        </>
      )}
    </>
  );
}
