import { grepCodeTerms, listCodeRenames, readCodeTree, readIgnoreFiles, type CodeRename, type CodeTree } from "../code-repo/read-code-repo";
import type { Citations, CitedPath } from "./extract-citations";
import { ignoredPathsOf, type IsIgnoredPath } from "./ignored-paths";
import type { StaleSignal } from "./stale-signal";

/** What the code says about one memory's citations: the stale ones, and notes (a symbol that moved). */
export type CodeCheck = { signals: StaleSignal[]; notes: string[] };

export type CitingMemory = { key: string; citations: Citations };

const MAX_RENAME_HOPS = 20;

/**
 * Checks the citations of many memories against one commit with a fixed number of git
 * processes, whatever the number of memories: one `ls-tree -r` of the whole tree, one `grep`
 * with every symbol, and (only when a path is missing) one `log -M` for renames.
 */
export async function checkCodeCitations(dir: string, commit: string, memories: CitingMemory[]): Promise<Map<string, CodeCheck>> {
  const symbols = [...new Set(memories.flatMap((memory) => memory.citations.symbols))];
  // The listing and the grep read different things: run them side by side.
  const [tree, whereSymbols] = await Promise.all([readTreeOnce(dir, commit), symbols.length ? grepCodeTerms(dir, commit, symbols) : Promise.resolve(new Map<string, string[]>())]);
  const hasMissingPath = memories.some((memory) => memory.citations.paths.some((cited) => !pathExists(tree, cited)) || memory.citations.fileNames.some((name) => !tree.byBaseName.has(bareName(name))));
  const [renames, isIgnored] = hasMissingPath ? await Promise.all([listCodeRenames(dir, commit).then(indexRenames), readIgnoreFiles(dir, commit, tree).then(ignoredPathsOf)]) : [new Map<string, CodeRename>(), NOTHING_IGNORED];
  const short = commit.slice(0, 7);
  const checks = new Map<string, CodeCheck>();
  for (const memory of memories) {
    const signals: StaleSignal[] = [];
    const notes: string[] = [];
    for (const cited of memory.citations.paths) {
      if (pathExists(tree, cited)) continue;
      if (isIgnored(cited.path, cited.isFolder)) notes.push(ignoredNote(cited.path));
      else signals.push(movedOrMissing(tree, renames, cited, short));
    }
    for (const fileName of memory.citations.fileNames) {
      if (tree.byBaseName.has(bareName(fileName))) continue;
      if (isIgnored(bareName(fileName), false)) {
        notes.push(ignoredNote(bareName(fileName)));
        continue;
      }
      signals.push({ kind: "missing-path", message: `\`${fileName}\` is a file name found nowhere in the code repository at ${short}.`, evidence: { path: fileName, commit } });
    }
    const citedPaths = new Set(memory.citations.paths.map((cited) => cited.path));
    for (const symbol of memory.citations.symbols) {
      const files = whereSymbols.get(symbol);
      if (!files?.length) {
        signals.push({ kind: "missing-symbol", message: `\`${symbol}\` occurs nowhere in the code repository at ${short}.`, evidence: { symbol, commit } });
        continue;
      }
      // A symbol that moved is not stale, but a memory pointing at its old file deserves the new one.
      if (citedPaths.size > 0 && !files.some((file) => citedPaths.has(file))) notes.push(`\`${symbol}\` now lives in \`${files[0]}\`.`);
    }
    checks.set(memory.key, { signals, notes });
  }
  return checks;
}

const NOTHING_IGNORED: IsIgnoredPath = () => false;

function bareName(fileName: string): string {
  return fileName.replace(/:\d+$/, "");
}

// A path git ignores (`.env`, `dist/`, `node_modules/`) is never in a commit: citing it is not
// citing something gone, so it gets a note instead of missing-path.
function ignoredNote(cited: string): string {
  return `\`${cited}\` is ignored by the code repository's .gitignore, so git never holds it: not checked.`;
}

// A commit's tree never changes: after a store commit, checking the one new memory file reuses it.
const trees = new Map<string, Promise<CodeTree>>();
const MAX_TREES = 4;

/** Benchmarks measure a cold check: nothing read before counts. */
export function forgetCodeTrees(): void {
  trees.clear();
}

function readTreeOnce(dir: string, commit: string): Promise<CodeTree> {
  const key = `${dir}\0${commit}`;
  const cached = trees.get(key);
  if (cached) return cached;
  const reading = readCodeTree(dir, commit);
  reading.catch(() => trees.delete(key));
  trees.set(key, reading);
  if (trees.size > MAX_TREES) trees.delete(trees.keys().next().value!);
  return reading;
}

function pathExists(tree: CodeTree, cited: CitedPath): boolean {
  return cited.isFolder ? tree.dirs.has(cited.path) : tree.files.has(cited.path) || tree.dirs.has(cited.path);
}

// Newest first from git log: the first rename of a path is where it went last.
function indexRenames(renames: CodeRename[]): Map<string, CodeRename> {
  const byOldPath = new Map<string, CodeRename>();
  for (const rename of renames) if (!byOldPath.has(rename.from)) byOldPath.set(rename.from, rename);
  return byOldPath;
}

function movedOrMissing(tree: CodeTree, renames: Map<string, CodeRename>, cited: CitedPath, short: string): StaleSignal {
  const moved = cited.isFolder || !renames.has(cited.path) ? findMovedFolder(tree, renames, cited.path) : followRenames(tree, renames, cited.path);
  const where = cited.line === undefined ? cited.path : `${cited.path}:${cited.line}`;
  if (moved && moved.exists) {
    return {
      kind: "moved-path",
      message: `\`${where}\` moved to \`${moved.to}\` in ${moved.commit.slice(0, 7)} on ${moved.at.slice(0, 10)}.`,
      evidence: { path: cited.path, ...(cited.line === undefined ? {} : { line: cited.line }), movedTo: moved.to, commit: moved.commit, at: moved.at },
    };
  }
  const after = moved ? ` (it was renamed to \`${moved.to}\` in ${moved.commit.slice(0, 7)}, which is gone too)` : "";
  return { kind: "missing-path", message: `\`${where}\` exists nowhere in the code repository at ${short}${after}.`, evidence: { path: cited.path, ...(cited.line === undefined ? {} : { line: cited.line }) } };
}

type Moved = { to: string; commit: string; at: string; exists: boolean };

function followRenames(tree: CodeTree, renames: Map<string, CodeRename>, start: string): Moved | null {
  let current = renames.get(start);
  let last: Moved | null = null;
  for (let hop = 0; current && hop < MAX_RENAME_HOPS; hop += 1) {
    last = { to: current.to, commit: current.commit, at: current.at, exists: tree.files.has(current.to) };
    if (last.exists) return last;
    current = renames.get(current.to);
  }
  return last;
}

// A folder moved when a file under it was renamed to the same relative path under another folder that exists.
function findMovedFolder(tree: CodeTree, renames: Map<string, CodeRename>, folder: string): Moved | null {
  const prefix = `${folder}/`;
  for (const rename of renames.values()) {
    if (!rename.from.startsWith(prefix)) continue;
    const rest = rename.from.slice(prefix.length);
    if (!rename.to.endsWith(`/${rest}`)) continue;
    const newFolder = rename.to.slice(0, -rest.length - 1);
    if (tree.dirs.has(newFolder)) return { to: newFolder, commit: rename.commit, at: rename.at, exists: true };
  }
  return null;
}
