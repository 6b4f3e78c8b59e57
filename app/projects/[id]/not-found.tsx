import Link from "next/link";

export default function ProjectNotFound() {
  return (
    <div className="panel empty" data-testid="project-not-found">
      There is no such project, or you have no role in it. A lead of the project can add you. <Link href="/projects">Back to Projects</Link>
    </div>
  );
}
