import Link from "next/link";

export default function MemoriesNotFound() {
  return (
    <div className="panel empty" data-testid="memories-not-found">
      There is no such project or private memory folder, or you have no access to it: a project needs a role in it, private memory is
      shown only to the owner of this machine&apos;s Claude home. <Link href="/memories">Back to Memories</Link>
    </div>
  );
}
