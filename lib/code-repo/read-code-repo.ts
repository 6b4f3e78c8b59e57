import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AppError } from "../errors";
import { runCodeGit } from "./code-git";

/** What a code commit holds: every file path, every folder, and where each file name occurs. */
export type CodeTree = { commit: string; files: Set<string>; dirs: Set<string>; byBaseName: Map<string, string[]> };

/** The commit HEAD names (the default branch of a mirror), or null when the repository has none. */
export async function resolveCodeHead(dir: string): Promise<string | null> {
  const { stdout, exitCode, stderr } = await runCodeGit(dir, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], { okExitCodes: [1, 128] });
  // git refuses a repository another user owns; "not a repository" would send people looking elsewhere.
  if (exitCode === 128 && stderr.includes("dubious ownership")) {
    throw new AppError("INVALID_INPUT", `${dir} belongs to another user, and git refuses to read it ("dubious ownership"): run teammem as its owner, or mark it safe with git config --global --add safe.directory ${dir}.`);
  }
  const commit = stdout.toString("utf8").trim();
  return exitCode === 0 && /^[0-9a-f]{40,64}$/.test(commit) ? commit : null;
}

/** One `git ls-tree -r` of the whole commit: symlinks and submodules count as files that exist. */
export async function readCodeTree(dir: string, commit: string): Promise<CodeTree> {
  const { stdout } = await runCodeGit(dir, ["ls-tree", "-r", "-z", "--full-tree", commit]);
  const files = new Set<string>();
  const dirs = new Set<string>();
  const byBaseName = new Map<string, string[]>();
  for (const line of stdout.toString("utf8").split("\0")) {
    const tab = line.indexOf("\t");
    if (tab < 0) continue;
    const filePath = line.slice(tab + 1);
    files.add(filePath);
    const baseName = filePath.slice(filePath.lastIndexOf("/") + 1);
    const sameName = byBaseName.get(baseName);
    if (sameName) sameName.push(filePath);
    else byBaseName.set(baseName, [filePath]);
    for (let slash = filePath.indexOf("/"); slash > 0; slash = filePath.indexOf("/", slash + 1)) dirs.add(filePath.slice(0, slash));
  }
  return { commit, files, dirs, byBaseName };
}

/** Terms per alternation: PCRE's compiled-pattern size limit is 64 KB on some builds. */
const TERMS_PER_PATTERN = 400;

/**
 * The files each term occurs in as a whole word (git's word characters: letters, digits and
 * `_`), from one `git grep -o` over the commit's tree. Terms go through a pattern file, each one
 * escaped character by character, so an identifier such as `$scope` is matched literally and
 * never read as regex syntax or an option. One PCRE alternation per few hundred terms: git grep
 * tries every pattern of a file on every line, so 5,000 `-F` patterns cost 20-50× one
 * alternation. Where git lacks PCRE, the same terms go as fixed strings (`-F -w`). Binary files
 * are skipped. `perTerm` caps the files kept per term (the evidence needs a few).
 */
export async function grepCodeTerms(dir: string, commit: string, terms: string[], perTerm = 5): Promise<Map<string, string[]>> {
  const usable = [...new Set(terms.filter((term) => term !== "" && !/[\n\r\0]/.test(term)))];
  if (usable.length === 0) return new Map();
  const folder = await mkdtemp(path.join(os.tmpdir(), "teammem-grep-"));
  try {
    const patternFile = path.join(folder, "terms");
    await writeFile(patternFile, toAlternations(usable).join("\n") + "\n", "utf8");
    // Exit 1 means "no match": an answer, not a failure.
    const args = ["grep", "-I", "-o", "-z", "--no-color", "--no-textconv", "-f", patternFile, commit, "--"];
    let output: Buffer;
    try {
      output = (await runCodeGit(dir, [...args.slice(0, 1), "-P", ...args.slice(1)], { okExitCodes: [1] })).stdout;
    } catch {
      await writeFile(patternFile, usable.join("\n") + "\n", "utf8");
      output = (await runCodeGit(dir, [...args.slice(0, 1), "-F", "-w", ...args.slice(1)], { okExitCodes: [1] })).stdout;
    }
    return parseGrepOutput(output, commit, perTerm);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

function toAlternations(terms: string[]): string[] {
  const patterns: string[] = [];
  for (let start = 0; start < terms.length; start += TERMS_PER_PATTERN) {
    const escaped = terms.slice(start, start + TERMS_PER_PATTERN).map((term) => term.replace(/[^A-Za-z0-9_]/g, (char) => `\\x{${char.codePointAt(0)!.toString(16)}}`));
    patterns.push(`(?<![A-Za-z0-9_])(?:${escaped.join("|")})(?![A-Za-z0-9_])`);
  }
  return patterns;
}

// "<commit>:<path>\0<match>\n" per match.
function parseGrepOutput(output: Buffer, commit: string, perTerm: number): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const prefix = `${commit}:`;
  for (const line of output.toString("utf8").split("\n")) {
    const nul = line.indexOf("\0");
    if (nul < 0 || !line.startsWith(prefix)) continue;
    const filePath = line.slice(prefix.length, nul);
    const term = line.slice(nul + 1);
    const files = found.get(term) ?? [];
    if (files.length === 0) found.set(term, files);
    if (files.length < perTerm && !files.includes(filePath)) files.push(filePath);
  }
  return found;
}

export type CodeRename = { from: string; to: string; commit: string; at: string };

/**
 * Every rename in the history of `commit`, newest first, from one `git log -M` pass (exact
 * renames need only trees; similar ones make git fetch the blobs it compares, in batches).
 */
export async function listCodeRenames(dir: string, commit: string): Promise<CodeRename[]> {
  const { stdout } = await runCodeGit(dir, ["log", "-M", "--no-ext-diff", "--no-textconv", "--diff-filter=R", "--name-status", "-z", "--format=%x01%H %aI", commit, "--"]);
  // With -z every field ends in a NUL: "\x01<hash> <date>", then "\n" and per rename "R<score>",
  // <from>, <to>. Walked field by field, a path is only ever read as a path, whatever it holds
  // (a \x01 or a newline in a file name).
  const fields = stdout.toString("utf8").split("\0");
  const renames: CodeRename[] = [];
  let header: { commit: string; at: string } | null = null;
  for (let index = 0; index < fields.length; index += 1) {
    const field = fields[index]!.replace(/^\n/, "");
    if (field.startsWith("\x01")) {
      const [hash = "", at = ""] = field.slice(1).split(" ");
      header = { commit: hash, at };
    } else if (field.startsWith("R") && header && index + 2 < fields.length) {
      renames.push({ from: fields[index + 1]!, to: fields[index + 2]!, ...header });
      index += 2;
    }
  }
  return renames;
}

/** `.gitignore` files read per check: the shallowest, which hold the rules that matter most. */
const MAX_IGNORE_FILES = 50;
const MAX_IGNORE_BYTES = 64 * 1024;

/**
 * The text of the commit's `.gitignore` files by path (the shallowest 50, each at most 64 KB),
 * from one `cat-file --batch` read by blob id: a path git ignores is one it never holds
 * (`.env`, `dist/`), so a memory citing it is not citing something gone.
 */
export async function readIgnoreFiles(dir: string, commit: string, tree: CodeTree): Promise<Map<string, string>> {
  const files = [...tree.files].filter((file) => file === ".gitignore" || file.endsWith("/.gitignore"));
  files.sort((a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : 1));
  const chosen = files.slice(0, MAX_IGNORE_FILES);
  if (chosen.length === 0) return new Map();
  const { stdout } = await runCodeGit(dir, ["cat-file", "--batch"], { input: chosen.map((file) => `${commit}:${file}\n`).join("") });
  const texts = new Map<string, string>();
  let offset = 0;
  for (const file of chosen) {
    const lineEnd = stdout.indexOf(0x0a, offset);
    if (lineEnd < 0) break;
    const header = stdout.subarray(offset, lineEnd).toString("utf8").split(" ");
    offset = lineEnd + 1;
    if (header[1] !== "blob") continue; // "missing" (a blobless mirror not yet filled), or a link
    const size = Number(header[2]);
    if (size <= MAX_IGNORE_BYTES) texts.set(file, stdout.subarray(offset, offset + size).toString("utf8"));
    offset += size + 1;
  }
  return texts;
}
