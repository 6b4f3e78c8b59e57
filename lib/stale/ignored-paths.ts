import ignore from "ignore";

/** Whether git ignores a path (relative to the repository; a folder when `isFolder`). */
export type IsIgnoredPath = (path: string, isFolder: boolean) => boolean;

/**
 * Matches paths against a commit's `.gitignore` files (by their own path), each applying to its
 * folder as git applies it. The `ignore` package reads the rules as git does (negation, `**`,
 * anchoring, folder-only patterns).
 */
export function ignoredPathsOf(ignoreFiles: ReadonlyMap<string, string>): IsIgnoredPath {
  const rules = [...ignoreFiles].map(([file, text]) => ({ base: file === ".gitignore" ? "" : file.slice(0, -"/.gitignore".length), matcher: ignore().add(text) }));
  return (cited, isFolder) =>
    rules.some(({ base, matcher }) => {
      if (base !== "" && !cited.startsWith(`${base}/`)) return false;
      const relative = base === "" ? cited : cited.slice(base.length + 1);
      // A path the package cannot take (`./x`, absolute) is not one a .gitignore names.
      return ignore.isPathValid(relative) && matcher.ignores(isFolder ? `${relative}/` : relative);
    });
}
