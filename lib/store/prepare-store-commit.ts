import type { Config } from "../config";
import { AppError } from "../errors";
import { parseMemoryHeader } from "../memdir/frontmatter";
import { scanSecrets } from "../secrets/scan-secrets";
import type { SecretFinding } from "../secrets/secret-finding";
import {
  createCommit,
  lastChangeTimes,
  listTree,
  readBlobs,
  readBlobText,
  readFilesAt,
  resolveRefQuickly,
  writeBlob,
  writeTreeWithChanges,
  type FileAt,
  type GitIdentity,
  type TreeChange,
} from "./git";
import { mergeMemory, WHOLE_FILE_FIELD } from "./merge-memory";
import { MAIN } from "./read-store";
import type { ProjectIndex } from "./project-index";
import { isMemoryFile, PROJECT_INDEX_FILE, regenerateProjectIndex, type ProjectIndexFile } from "./regenerate-project-index";
import { projectDir, serializeStoreManifest, STORE_FORMAT_VERSION, STORE_MANIFEST_FILE, StoreManifest } from "./store-manifest";
import { fetchStore } from "./fetch-on-same-disk";

export type PreparedChange = {
  projectId: string;
  projectName?: string;
  path: string;
  content: string | null;
  baseBlob: string | null;
};

export type PrepareCommitOptions = {
  change: PreparedChange;
  author: GitIdentity;
  committer: GitIdentity;
  message: string;
  /** The message for a merged text, whose name and type may be another's than the proposal's. */
  mergedMessage?: (content: string) => string;
  /**
   * Fetch the store first (default). A caller that knows its clone is at the newest commit on
   * record skips it: if the store moved anyway, the push is refused and the next attempt fetches.
   */
  fetch?: boolean;
  /**
   * Build on this commit instead of the clone's origin/main (a commit of the same batch, not
   * pushed yet); nothing is fetched then.
   */
  head?: string;
  /**
   * The project's MEMORY.md at `head` with the headers it lists, without reading every blob (the
   * read model); null when it cannot say for that commit, and the index is then regenerated from git.
   */
  projectIndex?: (head: string) => Promise<ProjectIndex | null>;
};

export type PreparedCommit =
  | {
      status: "ready";
      commit: string;
      /** The head the commit was built on, its time, and the file's final text (null = retired). */
      parent: string | null;
      at: Date;
      content: string | null;
      merged: boolean;
      /** The commit message as written (mergedMessage's for a merged text). */
      message: string;
      blob: string | null;
      /** The MEMORY.md this commit wrote, when the read model gave the one it was made from. */
      projectIndex: ProjectIndex | null;
      /** The objects written for the commit (a push on the same disk copies them). */
      written: string[];
    }
  | { status: "unchanged"; commit: string }
  | { status: "conflicted"; base: string | null; ours: string | null; theirs: string | null; conflictingFields: string[] }
  | { status: "blocked_secret"; findings: SecretFinding[] }
  | { status: "case_twin"; twin: string };

type CurrentFile = FileAt | null;

/**
 * Steps 1-4 of the server commit (docs/store.md): fetch, decide the final content against the
 * head (as proposed, or three-way merged), scan it, and build the commit on top of the head with
 * the project's regenerated MEMORY.md. Nothing is pushed and no branch moves; the caller must
 * hold the repository lock.
 */
export async function prepareStoreCommit(config: Config, options: PrepareCommitOptions): Promise<PreparedCommit> {
  const clone = config.storeCloneDir;
  const { change } = options;
  if (options.head === undefined && options.fetch !== false) await fetchStore(clone);
  const head = options.head ?? (await resolveRefQuickly(clone, MAIN));
  const filePath = `${projectDir(change.projectId)}/${change.path}`;
  const atHead = head ? await readFilesAt(clone, head, [filePath, STORE_MANIFEST_FILE]) : new Map<string, FileAt>();
  const current = atHead.get(filePath) ?? null;

  // A new file beside one that differs in letter case only: checked here, under the lease, at the
  // head the commit builds on, because two twins approved at once both passed the earlier check.
  if (current === null && change.content !== null && head) {
    const twin = await findCaseTwinAt(clone, head, change, options.projectIndex);
    if (twin !== null) return { status: "case_twin", twin };
  }
  const resolved = await resolveFinalContent(clone, change, current);
  if (resolved.status === "conflicted") return resolved;
  if (resolved.content === (current?.content ?? null)) {
    if (head) return { status: "unchanged", commit: head };
    throw new AppError("NOT_FOUND", "The team store is empty: there is nothing to retire.");
  }
  if (resolved.content !== null) {
    const findings = scanSecrets(resolved.content);
    if (findings.length > 0) return { status: "blocked_secret", findings };
  }

  const content = resolved.content;
  // Whole seconds: git keeps no more, and MEMORY.md orders by the time the read model will record.
  const at = new Date(Math.floor(Date.now() / 1000) * 1000);
  const written: string[] = [];
  const [index, blob] = await Promise.all([
    regeneratedIndex(clone, head, change, content, at, options.projectIndex),
    content === null ? null : writeBlob(clone, content, written),
  ]);
  const prefix = `${projectDir(change.projectId)}/`;
  const treeChanges: TreeChange[] = [
    blob === null ? { path: filePath, content: null } : { path: filePath, blob },
    { path: prefix + PROJECT_INDEX_FILE, content: index.bytes },
  ];
  const manifest = manifestWithProject(atHead.get(STORE_MANIFEST_FILE)?.content ?? null, change);
  if (manifest !== null) treeChanges.push({ path: STORE_MANIFEST_FILE, content: manifest });
  const tree = await writeTreeWithChanges(clone, head, treeChanges, written);
  if (!tree) throw new AppError("INTERNAL", "The store commit came out empty; nothing was written.");
  const message = resolved.merged && content !== null && options.mergedMessage ? options.mergedMessage(content) : options.message;
  const commit = await createCommit({ dir: clone, tree, parent: head, message, author: options.author, committer: options.committer, at, written });
  return { status: "ready", commit, parent: head, at, content, merged: resolved.merged, message, blob, projectIndex: index.projectIndex, written };
}

/** A memory of the project at `head` whose path differs from the change's in letter case only. */
async function findCaseTwinAt(clone: string, head: string, change: PreparedChange, projectIndex: PrepareCommitOptions["projectIndex"]): Promise<string | null> {
  const folded = change.path.toLowerCase();
  const isTwin = (other: string) => other.length === change.path.length && other !== change.path && other.toLowerCase() === folded;
  const known = projectIndex ? await projectIndex(head) : null;
  if (known) return known.headers.find((header) => isTwin(header.path))?.path ?? null;
  const prefix = `${projectDir(change.projectId)}/`;
  const entries = await listTree(clone, head, prefix);
  return entries.map((entry) => entry.path.slice(prefix.length)).find(isTwin) ?? null;
}

type Resolved =
  | { status: "resolved"; content: string | null; merged: boolean }
  | Extract<PreparedCommit, { status: "conflicted" }>;

async function resolveFinalContent(clone: string, change: PreparedChange, current: CurrentFile): Promise<Resolved> {
  // docs/store.md step 2: the file is still what the proposer saw (or absent on both sides): take it as proposed.
  if ((current?.blob ?? null) === change.baseBlob) return { status: "resolved", content: change.content, merged: false };
  const baseContent = change.baseBlob ? await readBlobText(clone, change.baseBlob) : null;
  const conflict = (conflictingFields: string[]): Resolved => ({
    status: "conflicted",
    base: baseContent,
    ours: current?.content ?? null,
    theirs: change.content,
    conflictingFields,
  });
  // Retired on both sides, or the same text reached the store another way: nothing to merge.
  if ((current?.content ?? null) === change.content) return { status: "resolved", content: change.content, merged: false };
  // One side retired the file, the other edited it: a person must choose.
  if (change.content === null || current === null) return conflict([WHOLE_FILE_FIELD]);
  if (change.baseBlob && baseContent === null) return conflict([WHOLE_FILE_FIELD]); // base unknown here
  const merged = await mergeMemory(baseContent ?? "", current.content, change.content);
  if (!merged.isClean) return conflict(merged.conflictingFields);
  return { status: "resolved", content: merged.text, merged: true };
}

/** The project's MEMORY.md after the change: its other files at the head plus the new content. */
async function regeneratedIndex(
  clone: string,
  head: string | null,
  change: PreparedChange,
  content: string | null,
  at: Date,
  projectIndex?: PrepareCommitOptions["projectIndex"],
): Promise<{ bytes: Buffer; projectIndex: ProjectIndex | null }> {
  const prefix = `${projectDir(change.projectId)}/`;
  const known = head && projectIndex ? await projectIndex(head) : null;
  if (known) {
    const header = content === null ? null : parseMemoryHeader(content);
    const next = header === null ? known.without(change.path) : known.with({ path: change.path, name: header.name, description: header.description, updatedAt: at });
    return { bytes: next.bytes, projectIndex: next };
  }
  const [entries, times] = head
    ? await Promise.all([listTree(clone, head, prefix), lastChangeTimes(clone, head, prefix)])
    : [[], new Map<string, Date>()];
  const others = entries.filter(
    (entry) => entry.path.startsWith(prefix) && entry.path !== prefix + change.path && isMemoryFile(entry.path.slice(prefix.length)),
  );
  const contents = await readBlobs(clone, others.map((entry) => entry.blob));
  const files: ProjectIndexFile[] = others.map((entry) => ({
    path: entry.path.slice(prefix.length),
    text: contents.get(entry.blob) ?? "",
    updatedAt: times.get(entry.path) ?? null,
  }));
  if (content !== null) files.push({ path: change.path, text: content, updatedAt: at });
  return { bytes: Buffer.from(regenerateProjectIndex(files), "utf8"), projectIndex: null };
}

/** The new teammem.json text when the project must be added, else null. */
function manifestWithProject(text: string | null, change: PreparedChange): string | null {
  const manifest: StoreManifest = text === null ? { formatVersion: STORE_FORMAT_VERSION, projects: [] } : parseManifest(text);
  if (manifest.projects.some((project) => project.id === change.projectId)) return null;
  const name = change.projectName?.trim() || change.projectId;
  return serializeStoreManifest({ ...manifest, projects: [...manifest.projects, { id: change.projectId, name }] });
}

function parseManifest(text: string): StoreManifest {
  const parsed = StoreManifest.safeParse(parseJson(text));
  if (parsed.success) return parsed.data;
  throw new AppError(
    "STORE_UNAVAILABLE",
    `The store's ${STORE_MANIFEST_FILE} is not valid; fix it with a commit to the store before approving more memories.`,
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null; // the schema check then reports the manifest as invalid
  }
}
