import { findAllMatches } from "./find-all-matches";
import { isLocalDefaultCredential } from "./is-local-default-credential";
import { isPlaceholderValue } from "./is-placeholder-value";
import { RANK_ASSIGNMENT, type SecretRange } from "./secret-finding";

// `mysql -u app -pS3cret db`: the MySQL and MariaDB clients take the password attached to `-p`
// (`-p secret` would prompt, and `secret` is the database). Quoted or bare; in a shell line or
// a compose file's `["CMD", "mysqladmin", …, "-p…"]`. The gap is bounded so that a long line
// naming mysql many times costs a bounded look-ahead each, not the rest of the line.
const MYSQL_PASSWORD_FLAG =
  /\b(?:mysql(?:dump|admin|import|show|check|pump|sh)?|mariadb(?:-dump|-admin)?)\b[^\n]{0,300}?[\s"']-p(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'`]+))/g;

/** Passwords given to the MySQL/MariaDB command-line tools as `-p<password>`. */
export function findMysqlPasswordFlags(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const match of findAllMatches(MYSQL_PASSWORD_FLAG, text)) {
    const value = match[1] ?? match[2] ?? match[3] ?? "";
    if (isReference(value) || isPlaceholderValue(value)) continue;
    const end = match.index + match[0].length - (match[3] === undefined ? 1 : 0);
    if (isLocalDefaultCredential({ password: value, ...userAndHost(text, match.index, end) })) continue;
    ranges.push({ kind: "password-assignment", start: end - value.length, end, isBounded: true, rank: RANK_ASSIGNMENT });
  }
  return ranges;
}

// `-u root` / `-uroot` / `--user=root`, and the same for the host; the clients default to localhost.
const USER_OPTION = /(?:^|[\s"'])(?:-u\s*|--user=)["']?([^\s"']+)/;
const HOST_OPTION = /(?:^|[\s"'])(?:-h\s*|--host=)["']?([^\s"']+)/;

function userAndHost(text: string, commandStart: number, passwordEnd: number): { user: string; host: string } {
  const lineEnd = text.indexOf("\n", passwordEnd);
  const command = text.slice(commandStart, lineEnd < 0 ? Math.min(text.length, passwordEnd + 300) : Math.min(lineEnd, passwordEnd + 300));
  return { user: USER_OPTION.exec(command)?.[1] ?? "", host: HOST_OPTION.exec(command)?.[1] ?? "localhost" };
}

// `-p$MYSQL_PWD`, `-p$$MYSQL_ROOT_PASSWORD` (compose's escape), `-p$(cat …)`: read elsewhere.
function isReference(value: string): boolean {
  return value.startsWith("$") || value.startsWith("`");
}
