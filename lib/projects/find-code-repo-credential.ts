import { readsAsWords } from "../secrets/measure-entropy";

const URL_AUTHORITY = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i;
// git's scp-like form: [user@]host:path, a colon before any slash and no "://" (a `user:pass@`
// is caught here too, and refused as a password rather than echoed as "not a git URL").
const SCP_LIKE_USER = /^([^@/]+)@[^@/:]+:(?!\/\/)/;
const SSH_SCHEMES = new Set(["ssh", "git+ssh", "ssh+git"]);
const MAX_USER_NAME_LENGTH = 39; // GitHub's limit; Bitbucket's is 30
const USER_NAME_CHARS = /^[A-Za-z0-9_.@+-]+$/;
const USER_NAME_PIECES = /[_.@+-]/;
const MAX_PIECE_LENGTH = 20;

/**
 * Why a code-repository URL may not be stored because its userinfo holds a credential, or null.
 * The setting is shown to every member of the project, so a password is refused in any URL, and
 * elsewhere than over ssh (https above all) the user name itself must read as a name: tokens are commonly pasted there
 * (`https://<Azure DevOps PAT>@dev.azure.com/…`, `https://<40-hex token>@github.com/…`). Over ssh
 * the user name is an account (`git@github.com:org/app.git`), never a secret; the key is.
 * The reason never repeats the value.
 */
export function findCodeRepoCredential(codeRepo: string): string | null {
  const userinfo = readUserinfo(codeRepo);
  if (userinfo === null || userinfo.text === "") return null;
  if (userinfo.text.includes(":")) return "the URL holds a password or token";
  if (userinfo.isSsh) return null;
  return isPlainUserName(userinfo.text) ? null : "the URL's user name looks like a token or key, not a name";
}

type Userinfo = { text: string; isSsh: boolean };

function readUserinfo(codeRepo: string): Userinfo | null {
  const url = URL_AUTHORITY.exec(codeRepo);
  if (url) {
    const authority = url[2]!;
    // The last `@`: people paste passwords with an unencoded `@` in them.
    const at = authority.lastIndexOf("@");
    return at < 0 ? null : { text: authority.slice(0, at), isSsh: SSH_SCHEMES.has(url[1]!.toLowerCase()) };
  }
  const scp = SCP_LIKE_USER.exec(codeRepo);
  return scp ? { text: scp[1]!, isSsh: true } : null;
}

// A person's, organisation's or bot's name (`acme`, `lena.lead`, `john_doe`, `deploy-bot`):
// short, and no piece is a long run or a short random mix of letters and digits.
function isPlainUserName(encoded: string): boolean {
  const name = decodeOrNull(encoded);
  if (name === null || name === "" || name.length > MAX_USER_NAME_LENGTH || !USER_NAME_CHARS.test(name)) return false;
  return name.split(USER_NAME_PIECES).every((piece) => piece.length < MAX_PIECE_LENGTH && !isRandomMix(piece));
}

function isRandomMix(piece: string): boolean {
  return piece.length >= 12 && /[A-Za-z]/.test(piece) && /[0-9]/.test(piece) && !readsAsWords(piece);
}

function decodeOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
