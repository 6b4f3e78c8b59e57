import Link from "next/link";

export default function ProposalNotFound() {
  return (
    <div className="panel empty" data-testid="proposal-not-found">
      There is no such proposal, or it belongs to a project you have no role in. <Link href="/review">Back to the queue</Link>
    </div>
  );
}
