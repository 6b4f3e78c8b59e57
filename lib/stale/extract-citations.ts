/** A file or folder a memory names, as written (`src/a.ts:12` → path `src/a.ts`, line 12). */
export type CitedPath = { path: string; line?: number; isFolder: boolean };

/** What a memory claims about the code: paths, file names (no folder: found anywhere) and symbols. */
export type Citations = { paths: CitedPath[]; fileNames: string[]; symbols: string[]; isTruncated: boolean };

/** A memory citing thousands of things is checked for the first ones only (and says so). */
export const MAX_CITATIONS_PER_KIND = 200;

const FENCE = /^\s*(```|~~~)/;
// A path: segments of word characters, dots, dashes, @ and + joined by `/`, optionally `:line`.
// Not preceded by a character that makes it part of a URL, another path or a word.
const PATH = /(?<![\w/.:@~$-])((?:\.\/)?(?:[\w@+-][\w@.+-]*\/)+[\w@+-][\w@.+-]*\/?|(?:[\w@+-][\w@.+-]*\/)+)(?::(\d+)(?:[-:]\d+)?)?/g;
const INLINE_CODE = /`([^`\n]+)`/g;
const CALL = /(?<![\w$.])([A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*)\(\)/g;
const IDENTIFIER = /^[A-Za-z_$][\w$]*(?:(?:\.|::|#|->)[A-Za-z_$][\w$]*)*(?:\(\))?$/;
const EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;
// Last labels that make a dotted name a host (`api.stripe.com`, `vault.corp.internal`), not `Object.member`.
// Two-letter ones (`.io`, `.de`) need no entry: a member under three letters is never searched.
const HOST_SUFFIXES = new Set("com org net edu gov mil biz dev cloud example invalid localhost internal corp".split(" "));
const HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i;
const CODE_EXTENSIONS = new Set("ts tsx js jsx mjs cjs go py rb rs java kt kts swift c h cc cpp hpp cs php scala sql sh bash zsh yml yaml json toml md mdx css scss less html vue svelte proto tf lock ini cfg conf xml gradle dart ex exs erl hs ml clj lua r pl txt env".split(" "));

/**
 * The code a memory cites: paths in prose, inline code and code blocks; file names and symbols
 * in inline code; calls written `name()` in prose. A symbol must look like code (see
 * looksLikeCode): a plain word such as `main`, a product name such as `GitHub` or a host such as
 * `api.stripe.com` in backticks is not a claim about the code. URLs, absolute paths and `..`
 * paths are not the repository's.
 */
export function extractCitations(text: string): Citations {
  const paths = new Map<string, CitedPath>();
  const fileNames = new Set<string>();
  const symbols = new Set<string>();
  let isInFence = false;
  for (const line of text.split("\n")) {
    if (FENCE.test(line)) {
      isInFence = !isInFence;
      continue;
    }
    const withoutUrls = line.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, " ");
    for (const match of withoutUrls.matchAll(PATH)) addPath(paths, match[1]!, match[2], false);
    if (isInFence) continue;
    for (const match of withoutUrls.matchAll(INLINE_CODE)) addInlineCode(match[1]!.trim(), { paths, fileNames, symbols });
    for (const match of withoutUrls.replace(INLINE_CODE, " ").matchAll(CALL)) addSymbol(symbols, `${match[1]}()`);
  }
  const all = { paths: [...paths.values()], fileNames: [...fileNames], symbols: [...symbols] };
  const isTruncated = all.paths.length > MAX_CITATIONS_PER_KIND || all.fileNames.length > MAX_CITATIONS_PER_KIND || all.symbols.length > MAX_CITATIONS_PER_KIND;
  return {
    paths: all.paths.slice(0, MAX_CITATIONS_PER_KIND),
    fileNames: all.fileNames.slice(0, MAX_CITATIONS_PER_KIND),
    symbols: all.symbols.slice(0, MAX_CITATIONS_PER_KIND),
    isTruncated,
  };
}

function addPath(paths: Map<string, CitedPath>, written: string, line: string | undefined, isInCode: boolean): void {
  let cited = written.replace(/^\.\//, "").replace(/[.,;]+$/, "");
  const isFolder = cited.endsWith("/");
  cited = cited.replace(/\/+$/, "");
  if (!cited.includes("/") && !isFolder) return;
  if (cited.split("/").some((segment) => segment === "" || segment === "." || segment === "..")) return;
  // In prose, `and/or` or `1/2` is not a path: only a file name with an extension or a folder
  // written with its trailing slash counts; in code, any slash path does.
  if (!isInCode && !isFolder && !EXTENSION.test(cited)) return;
  if (/^\d[\d/.-]*$/.test(cited)) return; // a date or a fraction
  if (!paths.has(cited)) paths.set(cited, { path: cited, ...(line ? { line: Number(line) } : {}), isFolder });
}

function addInlineCode(code: string, found: { paths: Map<string, CitedPath>; fileNames: Set<string>; symbols: Set<string> }): void {
  if (/\s/.test(code)) return; // a command or a sentence, not one name
  const pathMatch = /^((?:\.\/)?[\w@.+-]+(?:\/[\w@.+-]+)*\/?)(?::(\d+)(?:[-:]\d+)?)?$/.exec(code);
  if (pathMatch && pathMatch[1]!.includes("/")) return addPath(found.paths, pathMatch[1]!, pathMatch[2], true);
  const extension = /\.([A-Za-z][A-Za-z0-9]{0,7})(?::\d+)?$/.exec(code)?.[1]?.toLowerCase();
  if (pathMatch && extension && CODE_EXTENSIONS.has(extension)) {
    found.fileNames.add(pathMatch[1]!);
    return;
  }
  if (IDENTIFIER.test(code) && !isHostName(code)) addSymbol(found.symbols, code);
}

function addSymbol(symbols: Set<string>, written: string): void {
  const name = written.replace(/\(\)$/, "");
  const last = name.split(/\.|::|#|->/).pop()!;
  if (!looksLikeCode(written) || last.length < 3) return;
  symbols.add(last);
}

/**
 * A call, a member chain, an underscore or a `$` is code. One word alone is code only in shapes
 * product names do not take: a lowercase word then a capitalised one or a 3+ letter acronym
 * (`parseThing`, `parseJSON`, not `macOS` or `iPhone`), or three capitalised words
 * (`PaymentIntentService`, not `GitHub` or `PostgreSQL`). A two-word class name alone
 * (`LedgerService`) is therefore not checked: write `LedgerService.post` or `LedgerService()`.
 */
function looksLikeCode(written: string): boolean {
  if (written.endsWith("()") || /\.|::|#|->|[_$]/.test(written)) return true;
  if (/^[a-z]{2,}[A-Z]/.test(written)) return /[A-Z][a-z]|[A-Z]{3}/.test(written);
  return (written.match(/[A-Z][a-z0-9]+/g) ?? []).length >= 3;
}

/** `api.stripe.com`, `ASP.NET`: every label a host label and the last one a top-level domain. */
function isHostName(code: string): boolean {
  return HOST.test(code) && HOST_SUFFIXES.has(code.slice(code.lastIndexOf(".") + 1).toLowerCase());
}
