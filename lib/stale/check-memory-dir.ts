import { stat } from "node:fs/promises";
import path from "node:path";
import { resolveCodeHead } from "../code-repo/read-code-repo";
import { isAppError } from "../errors";
import { describeError, listMarkdownFiles, type SkippedFile } from "../memdir/list-markdown-files";
import { NotRegularFileError, readRegularFile } from "../memdir/read-regular-file";
import { DuplicateFinder } from "../review/find-duplicates";
import { maskSecretsInQuotedNames } from "../secrets/mask-secret-ranges";
import { MAX_CONTENT_BYTES } from "../review/validate-proposal-input";
import { assessFreshness, type DuplicateOf } from "./assess-freshness";
import { checkMemoryTexts } from "./check-memory-texts";
import { parseHeaderOfFirstLines } from "../memdir/frontmatter";
import type { FreshnessState, StaleSignal } from "./stale-signal";

export type LocalFreshness = { file: string; name: string | null; type: string | null; mtime: string; state: FreshnessState; score: number; signals: StaleSignal[]; notChecked: string[]; notes: string[] };

/** `skipped`: files not checked, with the reason (links, named pipes, unreadable files; S3). */
export type LocalFreshnessReport = { codeCommit: string | null; codeRepoProblem: string | null; memories: LocalFreshness[]; skipped: SkippedFile[] };

export type CheckMemoryDirOptions = { memoryDir: string; codeRepo: string | null; now?: Date };

// S2: a 6 MB file costs no more than the largest memory the team store takes, which the server
// checks whole. S3: past it, a line of megabytes is never read (the secret scanner that masks
// the text before any signal is derived overflows V8's regular-expression stack on one).
const MAX_CHECKED_BYTES = MAX_CONTENT_BYTES;
const NOT_CHECKED_PAST_LIMIT = `not checked: the text past the first ${MAX_CHECKED_BYTES / 1024} KB`;

/**
 * `teammem stale`: every memory of a local folder checked against a local code repository at
 * its HEAD, offline. Age is the file's mtime (after a sync, the store's commit time). There is no
 * recall log here, so "never recalled" is reported as not checked.
 */
export async function checkMemoryDir({ memoryDir, codeRepo, now = new Date() }: CheckMemoryDirOptions): Promise<LocalFreshnessReport> {
  const listing = await listMarkdownFiles(memoryDir);
  const skipped = [...listing.skipped];
  const read = await Promise.all(
    listing.files.map(async (file) => {
      try {
        // Only a regular file: one swapped for a named pipe since the listing would block the read.
        const { bytes, info } = await readRegularFile(path.join(memoryDir, file), MAX_CHECKED_BYTES);
        const isCut = info.size > bytes.length;
        return { file, text: isCut ? toWholeWords(bytes) : bytes.toString("utf8"), mtime: info.mtime, isCut };
      } catch (error) {
        skipped.push({ path: file, reason: "unreadable", message: error instanceof NotRegularFileError ? error.message : describeError(error) });
        return null;
      }
    }),
  );
  const memories = read.filter((memory) => memory !== null);
  const code = codeRepo ? await openLocalRepo(codeRepo) : { problem: "no code repository given (--repo)" };
  const results = await checkMemoryTexts({ memories: memories.map((memory) => ({ key: memory.file, text: memory.text, writtenAt: memory.mtime })), code: "commit" in code ? code : null });
  const duplicates = findLocalDuplicates(memories);
  const checked = memories.map((memory): LocalFreshness => {
    const header = parseHeaderOfFirstLines(memory.text);
    const assessment = assessFreshness({ type: header.type, lastCommitAt: memory.mtime, now, check: results.get(memory.file)!, codeProblem: "problem" in code ? code.problem : null, wasRecalled: null, duplicateOf: duplicates.get(memory.file) ?? null });
    if (!memory.isCut) return { file: memory.file, name: header.name, type: header.type, mtime: memory.mtime.toISOString(), ...assessment };
    // Its unread tail may cite a file that is gone: a memory not wholly checked is never called fresh.
    const state = assessment.state === "fresh" ? "aging" : assessment.state;
    return { file: memory.file, name: header.name, type: header.type, mtime: memory.mtime.toISOString(), ...assessment, state, notChecked: [...assessment.notChecked, NOT_CHECKED_PAST_LIMIT] };
  });
  checked.sort((a, b) => b.score - a.score || a.file.localeCompare(b.file));
  skipped.sort((a, b) => a.path.localeCompare(b.path));
  const mask = createNameMasker();
  return {
    codeCommit: "commit" in code ? code.commit : null,
    codeRepoProblem: "problem" in code ? code.problem : null,
    memories: checked.map((memory) => ({ ...memory, file: mask(memory.file), name: memory.name === null ? null : mask(memory.name), signals: memory.signals.map((signal) => ({ ...signal, message: mask(signal.message) })), notes: memory.notes.map(mask) })),
    skipped: skipped.map((file) => ({ ...file, path: mask(file.path), message: mask(file.message) })),
  };
}

/**
 * A credential in a file's name, a memory's name or a message quoting another memory's (a
 * duplicate) is masked, as `teammem lint` and `manifest` mask them: the report is printed and
 * may be pasted anywhere. Each distinct text is scanned once.
 */
function createNameMasker(): (text: string) => string {
  const masked = new Map<string, string>();
  return (text) => {
    let result = masked.get(text);
    if (result === undefined) masked.set(text, (result = maskSecretsInQuotedNames(text)));
    return result;
  };
}

/**
 * A cut file up to its last whitespace: a cut token (a credential's first half) is never read,
 * and a file of one long line is still checked up to there (cut at its last newline, nothing was).
 */
function toWholeWords(bytes: Buffer): string {
  const end = Math.max(bytes.lastIndexOf(0x0a), bytes.lastIndexOf(0x20), bytes.lastIndexOf(0x09));
  return bytes.toString("utf8", 0, end + 1);
}

async function openLocalRepo(codeRepo: string): Promise<{ dir: string; commit: string } | { problem: string }> {
  const dir = path.resolve(codeRepo);
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) return { problem: `${codeRepo} is not a folder` };
  try {
    const commit = await resolveCodeHead(dir);
    return commit ? { dir, commit } : { problem: `${codeRepo} is not a git repository with a commit at HEAD` };
  } catch (error) {
    return { problem: isAppError(error) ? error.message : `${codeRepo} could not be read` };
  }
}

function findLocalDuplicates(memories: { file: string; text: string; mtime: Date }[]): Map<string, DuplicateOf> {
  const finder = new DuplicateFinder();
  for (const memory of memories) finder.put(memory.file, memory.text);
  const byFile = new Map(memories.map((memory) => [memory.file, memory]));
  const found = new Map<string, DuplicateOf>();
  for (const memory of memories) {
    for (const candidate of finder.find(memory.text, memory.file)) {
      const other = byFile.get(candidate.path);
      if (other && other.mtime > memory.mtime) {
        found.set(memory.file, { path: candidate.path, name: candidate.name, similarity: candidate.similarity });
        break;
      }
    }
  }
  return found;
}
