import { findKeyProblem } from "../memdir/validate-memory-key";

/** Folders a team memory may sit in below its project (`a/b/c/name.md` at most). */
export const MAX_FOLDER_DEPTH = 3;
const MAX_SEGMENT_BYTES = 100;

// Format characters (Cf: bidirectional overrides and isolates, zero-width spaces and joiners,
// the BOM, soft hyphen), controls (Cc) and lone surrogates (Cs): they make a name that reads one
// way and is another ("invoice\u202Edm.exe" shows as "invoiceexe.md"). Also what shows as
// nothing or as a blank without being a space: default-ignorable characters (the combining
// grapheme joiner, variation selectors, Hangul fillers), the braille blank, and the line and
// paragraph separators, which break the line a name is shown on.
const INVISIBLE_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/u;
// Names every member's checkout must be able to hold, Windows included.
const NOT_PORTABLE = /[<>:"|?*]/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// Device names, whatever the extension; Windows drops spaces before the dot, so `nul .md` is NUL
// too. CONIN$ and CONOUT$ are the console's (git for Windows refuses them as well).
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9]|conin\$|conout\$) *(\.|$)/i;

/**
 * Why a path may not name a team memory in the store, or null. Stricter than what a scan reads
 * (any `*.md` a member's machine holds is still read and reported): a name in the store is shown
 * to every reviewer and written on every member's disk, so it must look like what it is. See
 * docs/review.md, "File names".
 */
export function findStoreNameProblem(path: string): string | null {
  const keyProblem = findKeyProblem(path);
  if (keyProblem) return keyProblem;
  // Printable ASCII holds no invisible character and is its own NFKC form (a sync checks thousands of names).
  if (!PRINTABLE_ASCII.test(path)) {
    const invisible = INVISIBLE_OR_CONTROL.exec(path);
    if (invisible) return `the name contains an invisible or control character (U+${invisible[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`;
    if (path.normalize("NFKC") !== path) return `the name has look-alike characters; write it as "${path.normalize("NFKC")}"`;
  }
  if (NOT_PORTABLE.test(path)) return 'the name contains one of < > : " | ? * (not allowed in file names on Windows)';
  const segments = path.split("/");
  if (segments.length - 1 > MAX_FOLDER_DEPTH) return `the name is more than ${MAX_FOLDER_DEPTH} folders deep`;
  for (const segment of segments) {
    if (segment.startsWith(".")) return `"${segment}" starts with a dot (hidden files and folders are not memories)`;
    if (/[. ]$/.test(segment)) return `"${segment}" ends with a dot or a space`;
    if (WINDOWS_RESERVED.test(segment)) return `"${segment}" is a reserved device name on Windows`;
    if (Buffer.byteLength(segment, "utf8") > MAX_SEGMENT_BYTES) return `a part of the name is longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  // Every folder's MEMORY.md is its index (the server writes the project's): a folder of that
  // name would stand where the index belongs, on every member's disk and in the store.
  if (segments.slice(0, -1).some((segment) => segment.toLowerCase() === "memory.md")) return "a folder may not be named MEMORY.md (each folder's MEMORY.md is its index)";
  // The index's own case twin: a macOS or Windows checkout holds it as MEMORY.md, which the
  // store regenerates, so one of the two would be lost there and every sync would stay incomplete.
  const name = segments.at(-1)!;
  if (name !== "MEMORY.md" && name.toLowerCase() === "memory.md") return `"${name}" is MEMORY.md in other letters (on macOS and Windows disks the same file as the index)`;
  return null;
}
