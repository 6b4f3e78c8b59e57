import { normaliseSearchTerm } from "./normalise-search-term";

// Words a developer uses for the same thing in a prompt and in a memory ("install a library" vs
// "ask before adding a dependency"). General software vocabulary, not one team's: a team's own
// names (Paygate, Flagsmith) are matched as written. Each group is a set of equals.
const SYNONYM_GROUPS = [
  "library package dependency dependencies module",
  "deploy deployment release rollout",
  "rollback revert undo",
  "kubernetes k8s kubectl pod namespace",
  "database db postgres postgresql sql psql",
  "currency currencies eur usd gbp",
  "accessibility a11y wcag screenreader",
  "translation translations translate i18n locale localisation localization",
  "bug defect ticket",
  "error exception crash",
  "log logging logs",
  "email mail",
  "job worker queue",
  "password credential secret token",
  "review reviewer",
  "dashboard metric monitoring",
  "ui component button frontend",
  "money amount price cents",
  "timezone utc",
].map((group) => group.split(" "));

type Synonym = { word: string; term: string };

const SYNONYMS_OF = new Map<string, Synonym[]>();
for (const group of SYNONYM_GROUPS) {
  const synonyms = group.flatMap((word) => {
    const term = normaliseSearchTerm(word);
    return term ? [{ word, term }] : [];
  });
  for (const { term } of synonyms) SYNONYMS_OF.set(term, [...(SYNONYMS_OF.get(term) ?? []), ...synonyms]);
}

/**
 * The words that mean what these normalised terms mean, minus the terms themselves: as written
 * (the index normalises a query again, and a stem normalised twice can lose a letter) and as the
 * terms the index will see.
 */
export function expandSearchSynonyms(terms: ReadonlySet<string>): Synonym[] {
  const found = new Map<string, Synonym>();
  for (const term of terms) {
    for (const synonym of SYNONYMS_OF.get(term) ?? []) if (!terms.has(synonym.term) && !found.has(synonym.term)) found.set(synonym.term, synonym);
  }
  return [...found.values()];
}
