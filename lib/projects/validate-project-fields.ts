import { z } from "zod";
import { AppError } from "../errors";
import { parseJsonOrNull } from "../parse-json";
import { assertNoSecret } from "../secrets/assert-no-secret";
import { findNameProblem } from "../find-name-problem";
import { findCredentialInName } from "../secrets/find-credential-in-name";
import { ADJUSTABLE_TYPES, DEFAULT_STALE_AFTER_DAYS, type StaleAfterDays } from "../stale/stale-thresholds";
import { ProjectId } from "../store/store-manifest";
import { deriveProjectId } from "./derive-project-id";
import { findCodeRepoCredential } from "./find-code-repo-credential";
import { normaliseRepoUrl } from "./normalise-repo-url";

export const MAX_PROJECT_NAME_LENGTH = 200;
export const MAX_REPO_URLS = 20;

/** A project's display name: trimmed, 1-200 characters, one line. */
export function validateProjectName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "") throw invalid("name", "name: give the project a name.");
  if (trimmed.length > MAX_PROJECT_NAME_LENGTH) throw invalid("name", `name: at most ${MAX_PROJECT_NAME_LENGTH} characters.`);
  // A line break would end a commit subject and start a fake trailer in the store's history.
  const nameProblem = findNameProblem(trimmed);
  if (nameProblem) throw invalid("name", `name: ${nameProblem}.`);
  assertNoSecret(trimmed, "name"); // shown on every page and stored in teammem.json
  return trimmed;
}

/** Normalised, without duplicates, in the order given; the first is the project's main remote. */
export function validateRepoUrls(urls: string[]): string[] {
  if (urls.length > MAX_REPO_URLS) throw invalid("repoUrls", `repoUrls: at most ${MAX_REPO_URLS} repository URLs.`);
  const normalised: string[] = [];
  urls.forEach((url, index) => {
    const result = normaliseRepoUrl(url);
    if (!result.ok) throw invalid(`repoUrls.${index}`, `repoUrls.${index}: "${shorten(url)}" is not a repository URL: ${result.reason}.`);
    // Stored in teammem.json and the database and shown on pages; a project id may be made from
    // it. The name rules, since a token in a path sits between `/`, `_` or `-` (`acme/ghp_…`).
    const credential = findCredentialInName(result.url);
    if (credential) throw invalid(`repoUrls.${index}`, `repoUrls.${index}: the URL ${credential}; give the repository's URL without it.`);
    if (!normalised.includes(result.url)) normalised.push(result.url);
  });
  return normalised;
}

/** The id given, or one derived from the first repository URL (else the name). */
export function resolveProjectId(options: { id?: string | null; repoUrls: string[]; name: string }): string {
  const given = options.id?.trim();
  if (given) {
    const credential = findCredentialInName(given);
    if (credential) throw invalid("id", `id: it ${credential}; choose another id (it names the project's folder in the store).`);
    if (!ProjectId.safeParse(given).success) {
      throw invalid("id", `id: "${shorten(given)}" is not a project id: use 1-100 lowercase letters, digits, dots or dashes, starting with a letter or digit.`);
    }
    return given;
  }
  const derived = deriveProjectId({ repoUrl: options.repoUrls[0], name: options.name });
  if (!derived) throw invalid("id", "id: none given, and none can be derived from the repository URL or name; give one.");
  return derived;
}

const StoredRepoUrls = z.array(z.string());

/** The `repoUrls` column (a JSON array); a damaged value reads as no URLs rather than failing a page. */
export function parseStoredRepoUrls(text: string): string[] {
  const parsed = StoredRepoUrls.safeParse(parseJsonOrNull(text));
  return parsed.success ? parsed.data : [];
}

function invalid(field: string, message: string): AppError {
  return new AppError("INVALID_INPUT", message, { details: { field } });
}

// Echo enough of a bad value to recognise it, never a whole pasted blob (which might hold a token).
function shorten(text: string): string {
  const withoutCredentials = text.replace(/\/\/[^@/]*@/, "//***@");
  return withoutCredentials.length > 80 ? `${withoutCredentials.slice(0, 79)}…` : withoutCredentials;
}

export const MAX_STALE_AFTER_DAYS = 3650;

/**
 * A project's own age limits for the staleness checks: per type, whole days from 1 to 3650, or
 * null for "never old". Types left out keep the defaults; null or {} clears every override.
 * Returns the JSON to store (only the types that differ from the defaults), or null.
 */
export function validateStaleAfterDays(value: Record<string, number | null> | null): string | null {
  if (value === null) return null;
  const overrides: Partial<StaleAfterDays> = {};
  for (const [type, days] of Object.entries(value)) {
    if (!(ADJUSTABLE_TYPES as readonly string[]).includes(type)) {
      throw invalid("staleAfterDays", `staleAfterDays: "${shorten(type)}" is not a memory type a project can set (${ADJUSTABLE_TYPES.join(", ")}).`);
    }
    if (days !== null && (!Number.isInteger(days) || days < 1 || days > MAX_STALE_AFTER_DAYS)) {
      throw invalid("staleAfterDays", `staleAfterDays.${type}: a whole number of days from 1 to ${MAX_STALE_AFTER_DAYS}, or null for never.`);
    }
    const key = type as keyof StaleAfterDays;
    if (days !== DEFAULT_STALE_AFTER_DAYS[key]) overrides[key] = days;
  }
  return Object.keys(overrides).length > 0 ? JSON.stringify(overrides) : null;
}

export const MAX_CODE_REPO_LENGTH = 500;

/**
 * The project's code repository for staleness checks: a git URL (https, ssh, git, file or
 * user@host:path) or an absolute path on the server; blank clears it. Refused: a URL with a
 * password, or a token as its user name (it would sit in the database and be shown to every
 * member; use ssh or a credential helper), git's
 * `transport::address` forms (ext:: runs a command) and anything starting with `-`.
 */
export function validateCodeRepo(value: string | null): string | null {
  const trimmed = value?.trim() ?? "";
  if (trimmed === "") return null;
  if (trimmed.length > MAX_CODE_REPO_LENGTH) throw invalid("codeRepo", `codeRepo: at most ${MAX_CODE_REPO_LENGTH} characters.`);
  if ([...trimmed].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f) || /\s/.test(trimmed)) throw invalid("codeRepo", "codeRepo: use one git URL or path without spaces or control characters.");
  if (trimmed.startsWith("-") || /^[a-z][a-z0-9+.-]*::/i.test(trimmed)) throw invalid("codeRepo", `codeRepo: "${shorten(trimmed)}" is not a git URL or path.`);
  const credential = findCodeRepoCredential(trimmed);
  if (credential) throw invalid("codeRepo", `codeRepo: ${credential}; give the URL without it and let the server authenticate (an ssh key, or a git credential helper for https).`);
  assertNoSecret(trimmed, "codeRepo");
  const isUrl = /^(https?|ssh|git|file):\/\/[^\s]+$/i.test(trimmed) || /^[\w.-]+@[\w.-]+:[^\s]+$/.test(trimmed);
  if (!isUrl && !trimmed.startsWith("/")) throw invalid("codeRepo", `codeRepo: "${shorten(trimmed)}" is neither a git URL (https://, ssh://, git://, file://, user@host:path) nor an absolute path.`);
  return trimmed;
}
