const MAX_ID_LENGTH = 100;

/**
 * The id a project gets when its creator gives none: from the first repository URL's path
 * (`github.com/acme/checkout` → `acme-checkout`, `gitlab.example.com/group/sub/app` →
 * `group-sub-app`), else from its name (`Acme Checkout` → `acme-checkout`). The host is left out:
 * ids read better without it and an admin can always give one explicitly. Null when nothing
 * usable is left (a name of only punctuation, say). `repoUrl` must already be normalised.
 */
export function deriveProjectId(options: { repoUrl?: string | null; name?: string | null }): string | null {
  if (options.repoUrl) {
    const path = options.repoUrl.split("/").slice(1).join("-");
    const fromUrl = slugify(path);
    if (fromUrl) return fromUrl;
  }
  return options.name ? slugify(options.name) : null;
}

// Matches ProjectId in lib/store/store-manifest.ts: lowercase letters, digits, dots, dashes,
// starting with a letter or digit, at most 100 characters.
function slugify(text: string): string | null {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "") // accents: "Café" → "cafe"
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/-{2,}/g, "-")
    .replace(/^[.-]+/, "")
    .slice(0, MAX_ID_LENGTH)
    .replace(/[.-]+$/, "");
  return slug === "" ? null : slug;
}
