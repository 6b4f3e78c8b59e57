/**
 * Masks or redacts a text found under a key (provenance, log fields) as the assignment it is:
 * `{"password": "Zq8!vR…"}` names its secret only by the key, as `password=Zq8!vR…` does in a
 * file, and the value alone looks like any word. The value is scanned alone first, since a rule
 * that reads a line from its start (`DB_PASSWORD=…` as the whole value) sees it only there.
 */
export function scanWithKey(key: string, value: string, transform: (text: string) => string): string {
  const alone = transform(value);
  if (alone !== value) return alone;
  const assignment = `${key}=${value}`;
  const transformed = transform(assignment);
  if (transformed === assignment) return value;
  // The key itself inside a secret's range (a key that is a token): the value goes whole.
  return transformed.startsWith(`${key}=`) ? transformed.slice(key.length + 1) : "[REDACTED]";
}
