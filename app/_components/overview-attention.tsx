import Link from "next/link";
import type { AttentionItem } from "@/lib/overview/list-attention-items";
import styles from "./overview.module.css";

/** The first thing a lead reads: what to act on, in words (the tag says it too, not only the colour). */
export function OverviewAttention({ projectName, items }: { projectName: string; items: AttentionItem[] }) {
  return (
    <section className={styles.section} aria-labelledby="attention-heading" data-testid="overview-attention">
      <h3 id="attention-heading">Needs attention in {projectName}</h3>
      {items.length === 0 ? (
        <p className="muted" style={{ margin: 0 }}>Nothing needs you here right now: no open proposals, no stale memories.</p>
      ) : (
        <ul className={styles.attention}>
          {items.map((item) => (
            <li key={item.text}>
              <span className={`${styles.tag} ${item.tone === "act" ? styles.act : styles.note}`}>{item.tone === "act" ? "Act" : "Note"}</span>
              {item.href ? <Link href={item.href}>{item.text}</Link> : <span>{item.text}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
