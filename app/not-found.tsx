import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: { absolute: "Not found · teammem" } };

export default function NotFound() {
  return (
    <div className="panel empty">
      <p>There is no page here.</p>
      <Link href="/">Back to the overview</Link>
    </div>
  );
}
