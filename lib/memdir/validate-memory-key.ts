/**
 * C12: a memory key is a relative path with `/`. Rejected: empty, NUL, backslashes, absolute
 * paths (POSIX or drive letters), and `..` segments, also when hidden by URL encoding or Unicode
 * NFKC normalisation (`%2e%2e`, fullwidth `．．`). Returns why, or null when the key is safe.
 */
export function findKeyProblem(key: string): string | null {
  if (key === "") return "the name is empty";
  const decoded = safeDecode(key);
  for (const form of [key, decoded, key.normalize("NFKC"), decoded.normalize("NFKC")]) {
    if (form.includes("\0")) return "the name contains a NUL character";
    if (form.includes("\\")) return "the name contains a backslash";
    if (form.startsWith("/") || /^[A-Za-z]:/.test(form)) return "the name is an absolute path";
    if (form.split("/").some((segment) => segment === ".." || segment === ".")) return "the name contains a `.` or `..` segment";
    if (form.split("/").some((segment) => segment === "")) return "the name contains an empty segment";
  }
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
