/**
 * C12: a memory key is a relative path with `/`. Rejected: empty, NUL, backslashes, absolute
 * paths (POSIX or drive letters), and `..` segments, also when hidden by URL encoding or Unicode
 * NFKC normalisation (`%2e%2e`, fullwidth `．．`). Returns why, or null when the key is safe.
 */
export function findKeyProblem(key: string): string | null {
  if (key === "") return "the name is empty";
  // Printable ASCII without `%` is its own URL-decoding and its own NFKC form: one form to check.
  // Nearly every key is such a name, and a sync checks thousands (four forms cost 30 µs a key).
  if (PLAIN_KEY.test(key)) return findFormProblem(key);
  const decoded = safeDecode(key);
  for (const form of [key, decoded, key.normalize("NFKC"), decoded.normalize("NFKC")]) {
    const problem = findFormProblem(form);
    if (problem) return problem;
  }
  return null;
}

const PLAIN_KEY = /^[\x20-\x24\x26-\x7e]+$/;

function findFormProblem(form: string): string | null {
  if (form.includes("\0")) return "the name contains a NUL character";
  if (form.includes("\\")) return "the name contains a backslash";
  if (form.startsWith("/") || /^[A-Za-z]:\//.test(form)) return "the name is an absolute path";
  // `C:notes.md` is relative to drive C's current folder on Windows: a colon there is never a name.
  if (/^[A-Za-z]:/.test(form)) return "the name starts with a drive letter and a colon (a Windows drive)";
  const segments = form.split("/");
  if (segments.some((segment) => segment === ".." || segment === ".")) return "the name contains a `.` or `..` segment";
  if (segments.some((segment) => segment === "")) return "the name contains an empty segment";
  return null;
}

export function isSafeMemoryKey(key: string): boolean {
  return findKeyProblem(key) === null;
}

function safeDecode(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}
