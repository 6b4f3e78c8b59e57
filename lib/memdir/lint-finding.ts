/**
 * The rules `teammem lint` reports. The names are readable and stable, so machines (`--json`)
 * key on them; docs/memory-format.md ("Lint rules") maps each to the requirement it enforces.
 * Messages never carry requirement ids: they say what is wrong and why, for people.
 */
export type LintRule =
  | "frontmatter-invalid"
  | "unknown-type"
  | "missing-type"
  | "missing-name"
  | "missing-description"
  | "vague-description"
  | "missing-why"
  | "missing-how-to-apply"
  | "relative-date"
  | "derivable-content"
  | "hidden-text"
  | "unreadable"
  | "symlink-escape"
  | "index-dangling"
  | "index-orphan"
  | "index-long-line"
  | "index-truncated"
  // Checked by lib/secrets (T3), reported through the same lint output.
  | "secret"
  // Review only: a proposal that writes a masked marker where the store's version holds a secret.
  | "replaces-store-secret"
  // What sync and propose refuse (C12), checked by their own rules in lib/lint.
  | "invalid-name"
  | "too-large"
  | "not-utf8";

export type LintSeverity = "error" | "warning";

export type LintFinding = {
  /** Relative to the memory directory, with `/`. */
  file: string;
  rule: LintRule;
  severity: LintSeverity;
  message: string;
  /** 1-based line the finding is about, when there is one. */
  line?: number;
  /** What to change, when teammem can say it precisely (e.g. the absolute date for F4). */
  fix?: string;
};
