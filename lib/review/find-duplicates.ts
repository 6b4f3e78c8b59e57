import MiniSearch from "minisearch";
import { parseFrontmatter, parseMemoryHeader } from "../memdir/frontmatter";
import { normaliseSearchTerm } from "../recall/normalise-search-term";
import type { DuplicateCandidate } from "./proposal-types";

export type TeamMemoryText = { path: string; text: string };

type MemoryDocument = { id: string; path: string; name: string; description: string; body: string };

/** At or above this, two memories are shown to the reviewer as near-duplicates. */
export const SIMILARITY_THRESHOLD = 0.5;
const CANDIDATES = 20;
const MAX_BODY_TERMS = 24;
const MAX_SUMMARY_TERMS = 12;
/**
 * Distinct words a body needs before its overlap counts in full: "See the runbook." under two
 * memories about deploys and Kafka says nothing about whether they are the same memory.
 */
const FULL_BODY_TERMS = 8;

const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];

/**
 * Same name, or a description or body that reads alike, among the project's team memories. The
 * caller leaves out the file the proposal edits. MiniSearch (fuzzy, so "deploys"/"deploy" and
 * typos still meet) picks the candidates; the score shown is a plain 0..1 overlap of their
 * normalised words, so a reviewer can read "0.8" as "mostly the same words".
 */
export function findDuplicates(content: string, teamMemories: readonly TeamMemoryText[]): DuplicateCandidate[] {
  const finder = new DuplicateFinder();
  for (const memory of teamMemories) finder.put(memory.path, memory.text);
  return finder.find(content);
}

/**
 * The project's memories indexed for duplicate checks, kept between requests and updated by the
 * documents that changed (put/remove) instead of being rebuilt for every proposal.
 */
export class DuplicateFinder {
  private readonly search = new MiniSearch<MemoryDocument>({ fields: ["name", "description", "body"], storeFields: [], processTerm: normaliseSearchTerm });
  private readonly documents = new Map<string, MemoryDocument>();
  private readonly pathsByName = new Map<string, Set<string>>();
  /** Paths by their lower-cased spelling: the finder is the project's memories at head, kept warm. */
  private readonly pathsByFoldedCase = new Map<string, Set<string>>();
  /** In how many documents each word occurs: the query keeps the words that tell documents apart. */
  private readonly documentFrequency = new Map<string, number>();

  get size(): number {
    return this.documents.size;
  }

  put(path: string, text: string): void {
    this.remove(path);
    const document = toDocument(path, text);
    this.documents.set(path, document);
    this.search.add(document);
    for (const term of documentTerms(document)) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    const name = normaliseName(document.name);
    if (name) this.pathsByName.set(name, (this.pathsByName.get(name) ?? new Set()).add(path));
    this.pathsByFoldedCase.set(path.toLowerCase(), (this.pathsByFoldedCase.get(path.toLowerCase()) ?? new Set()).add(path));
  }

  remove(path: string): void {
    const document = this.documents.get(path);
    if (!document) return;
    this.search.discard(path);
    this.documents.delete(path);
    for (const term of documentTerms(document)) {
      const count = (this.documentFrequency.get(term) ?? 1) - 1;
      if (count > 0) this.documentFrequency.set(term, count);
      else this.documentFrequency.delete(term);
    }
    this.pathsByName.get(normaliseName(document.name))?.delete(path);
    this.pathsByFoldedCase.get(path.toLowerCase())?.delete(path);
  }

  has(path: string): boolean {
    return this.documents.has(path);
  }

  /**
   * A memory below `folder` in any letter case (`Folder/…` for `folder`), or null: then no file
   * may take that name, on a disk that folds case either.
   */
  findInFolder(folder: string): string | null {
    const prefix = `${folder.toLowerCase()}/`;
    for (const path of this.documents.keys()) if (path.toLowerCase().startsWith(prefix)) return path;
    return null;
  }

  /** A memory whose path differs from `path` in letter case only, or null. */
  findCaseTwin(path: string): string | null {
    for (const other of this.pathsByFoldedCase.get(path.toLowerCase()) ?? []) if (other !== path) return other;
    return null;
  }

  private rarest(words: string[], limit: number): string[] {
    const frequency = (word: string) => this.documentFrequency.get(word) ?? 0;
    return [...new Set(words)].sort((a, b) => frequency(a) - frequency(b) || (a < b ? -1 : 1)).slice(0, limit);
  }

  /** Candidates for a proposed file; `exceptPath` (the file the proposal edits) is not its own duplicate. */
  find(content: string, exceptPath?: string): DuplicateCandidate[] {
    if (this.documents.size === 0) return [];
    const proposal = toDocument("", content);
    // The rarest distinct words only, typo tolerance for the summary (what recall selects on)
    // only: a fuzzy, prefix search for every word of a long body costs seconds at 10,000
    // memories, and a word most memories share cannot tell a duplicate apart anyway.
    const summaryTerms = this.rarest(terms(`${proposal.name} ${proposal.description}`), MAX_SUMMARY_TERMS);
    const bodyTerms = this.rarest(terms(proposal.body), MAX_BODY_TERMS);
    const hits = this.search.search({
      combineWith: "OR",
      queries: [
        { queries: summaryTerms, fuzzy: 0.2, prefix: true, boost: { name: 2, description: 2 } },
        { queries: bodyTerms, fields: ["body", "description"] },
      ],
    });
    const candidates = new Set(hits.filter((hit) => hit.id !== exceptPath).slice(0, CANDIDATES).map((hit) => String(hit.id)));
    const sameName = new Set(normaliseName(proposal.name) ? (this.pathsByName.get(normaliseName(proposal.name)) ?? []) : []);
    return sortFound(this.judge(proposal, new Set([...sameName, ...candidates]), exceptPath));
  }

  /**
   * The list `find` gave at an earlier commit, brought to this one by the files that changed in
   * between: those are judged again with the same pairwise score (which does not depend on the
   * rest of the store), and the others keep their verdict. An approval re-checks a proposal this
   * way instead of searching every memory again (~30 ms at 10,000).
   */
  refresh(content: string, previous: readonly DuplicateCandidate[], changedPaths: readonly string[], exceptPath?: string): DuplicateCandidate[] {
    const changed = new Set(changedPaths);
    const kept = previous.filter((candidate) => !changed.has(candidate.path) && this.documents.has(candidate.path) && candidate.path !== exceptPath);
    return sortFound([...kept, ...this.judge(toDocument("", content), changed, exceptPath)]);
  }

  private judge(proposal: MemoryDocument, paths: Iterable<string>, exceptPath: string | undefined): DuplicateCandidate[] {
    const proposalName = normaliseName(proposal.name);
    const found: DuplicateCandidate[] = [];
    for (const path of paths) {
      const document = this.documents.get(path);
      if (!document || path === exceptPath) continue;
      const isSameName = proposalName !== "" && normaliseName(document.name) === proposalName;
      const similarity = round(scoreSimilarity(proposal, document));
      if (!isSameName && similarity < SIMILARITY_THRESHOLD) continue;
      found.push({ path, name: document.name || null, similarity, kind: isSameName ? "same-name" : "similar" });
    }
    return found;
  }
}

// Ties by path, so the same store gives the same list on every instance.
function sortFound(found: DuplicateCandidate[]): DuplicateCandidate[] {
  return found.sort((a, b) => Number(b.kind === "same-name") - Number(a.kind === "same-name") || b.similarity - a.similarity || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The larger of two overlaps: of name + description (what recall selects on), and of bodies,
 * the latter scaled down when the shorter body has fewer than FULL_BODY_TERMS distinct words.
 */
export function scoreSimilarity(a: Pick<MemoryDocument, "name" | "description" | "body">, b: Pick<MemoryDocument, "name" | "description" | "body">): number {
  const summary = dice(terms(`${a.name} ${a.description}`), terms(`${b.name} ${b.description}`));
  const [leftBody, rightBody] = [terms(a.body), terms(b.body)];
  const bodyWeight = Math.min(1, Math.min(new Set(leftBody).size, new Set(rightBody).size) / FULL_BODY_TERMS);
  return Math.max(summary, cosine(leftBody, rightBody) * bodyWeight);
}

function toDocument(path: string, text: string): MemoryDocument {
  const header = parseMemoryHeader(text);
  return { id: path, path, name: header.name ?? "", description: header.description ?? "", body: parseFrontmatter(text).body };
}

function documentTerms(document: MemoryDocument): Set<string> {
  return new Set(terms(`${document.name} ${document.description} ${document.body}`));
}

function terms(text: string): string[] {
  return tokenize(text).flatMap((token) => normaliseSearchTerm(token) ?? []);
}

// Dice over word sets: short texts (a description) share few words, and each one counts.
function dice(a: string[], b: string[]): number {
  const left = new Set(a);
  const right = new Set(b);
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const term of left) if (right.has(term)) shared++;
  return (2 * shared) / (left.size + right.size);
}

// Cosine over word counts: bodies of different lengths still compare by what they say most.
function cosine(a: string[], b: string[]): number {
  const left = counts(a);
  const right = counts(b);
  let dot = 0;
  for (const [term, count] of left) dot += count * (right.get(term) ?? 0);
  const norm = (vector: Map<string, number>) => Math.sqrt([...vector.values()].reduce((sum, count) => sum + count * count, 0));
  const denominator = norm(left) * norm(right);
  return denominator === 0 ? 0 : dot / denominator;
}

function counts(words: string[]): Map<string, number> {
  const vector = new Map<string, number>();
  for (const word of words) vector.set(word, (vector.get(word) ?? 0) + 1);
  return vector;
}

function normaliseName(name: string): string {
  return name.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
