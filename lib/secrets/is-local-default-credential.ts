// Bug 09: the passwords docker images and their docs publish (postgres, mysql, rabbitmq, minio)
// and that tutorials and CI files copy. Any password equal to its user name counts as well
// (`postgres:postgres`, `guest:guest`, `root:root`, `minioadmin:minioadmin`). The mysql docs'
// `my-secret-pw` is a placeholder already (is-placeholder-value.ts).
const PUBLISHED_DEFAULTS = new Set(["pass", "postgres", "root", "guest", "mysecretpassword"]);

// This machine (`localhost`, `*.localhost`, 127/8, `::1`, `0.0.0.0`), the host seen from a
// container, or a docker-compose service name (one label, no dot: `db`, `postgres`).
const LOCAL_HOST = /^(?:localhost|[a-z0-9-]+\.localhost|127(?:\.\d{1,3}){3}|\[?::1\]?|0\.0\.0\.0|host\.docker\.internal|[a-z][a-z0-9_-]*)$/i;

export type CredentialOptions = { user: string; password: string; host: string };

/**
 * Whether a user/password pair is an image's published default on a local host: no secret, and
 * masking it would cost every "how to run the tests" note its useful part. A default password on
 * another host is still flagged (it unlocks that host), and so is any other password on localhost.
 */
export function isLocalDefaultCredential({ user, password, host }: CredentialOptions): boolean {
  if (!LOCAL_HOST.test(host)) return false;
  return password === user || PUBLISHED_DEFAULTS.has(password);
}
