"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const ENTRIES = [
  { href: "/", label: "Overview" },
  { href: "/projects", label: "Projects" },
  { href: "/memories", label: "Memories" },
  { href: "/review", label: "Review" },
  { href: "/recall", label: "Recall" },
  { href: "/settings", label: "Settings" },
];

/** `openReviews`: proposals waiting in the projects the user leads. */
export function Nav({ openReviews = 0 }: { openReviews?: number }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main">
      <ul className="nav">
        {ENTRIES.map((entry) => {
          const isActive = entry.href === "/" ? pathname === "/" : pathname.startsWith(entry.href);
          return (
            <li key={entry.href}>
              <Link href={entry.href} aria-current={isActive ? "page" : undefined}>
                {entry.label}
                {entry.href === "/review" && openReviews > 0 && <span className="nav-count" data-testid="review-count">{openReviews}</span>}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
