import { measureEntropy } from "./measure-entropy";
import { RANK_STRUCTURE, type SecretRange } from "./secret-finding";

// RSA, EC, DSA, OpenSSH, PKCS#8 (plain and encrypted) and PGP private keys. Public keys and
// certificates have other labels and are left alone on purpose.
const BEGIN_MARKER = /-----BEGIN ((?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)-----/g;
const END_MARKER = /-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----/g;
// A GCP service-account file carries its key JSON-escaped in this field.
const SERVICE_ACCOUNT_FIELD = /"private_key"\s*:\s*"$/;
// Key material: a long base64 run once line breaks (real or JSON-escaped `\n`) are removed.
const KEY_MATERIAL = /[A-Za-z0-9+/]{32,}/;

/**
 * PEM/OpenSSH/PGP private key blocks, markers included. A block without its END marker cannot be
 * bounded: it runs to the end of the text and is marked unbounded, so redaction blocks.
 */
export function findPrivateKeys(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  BEGIN_MARKER.lastIndex = 0;
  for (let begin = BEGIN_MARKER.exec(text); begin; begin = BEGIN_MARKER.exec(text)) {
    const bodyStart = begin.index + begin[0].length;
    END_MARKER.lastIndex = bodyStart;
    const end = END_MARKER.exec(text);
    // Without an END marker, only material right after the header counts: a prose mention of the
    // marker must not swallow a certificate further down.
    const bodyEnd = end ? end.index : Math.min(text.length, bodyStart + 300);
    if (!hasKeyMaterial(text.slice(bodyStart, bodyEnd))) continue;
    const lineStart = text.lastIndexOf("\n", begin.index) + 1;
    const isServiceAccount = SERVICE_ACCOUNT_FIELD.test(text.slice(lineStart, begin.index));
    const rangeEnd = end ? end.index + end[0].length : text.length;
    ranges.push({
      kind: isServiceAccount ? "gcp-service-account-key" : "private-key",
      start: begin.index,
      end: rangeEnd,
      isBounded: end !== null,
      rank: RANK_STRUCTURE,
    });
    BEGIN_MARKER.lastIndex = rangeEnd;
  }
  return ranges;
}

// Docs show the markers around `...` or `xxxx`; only a random base64 body is a key.
function hasKeyMaterial(body: string): boolean {
  const material = body.replace(/\\[nr]|\s/g, "").match(KEY_MATERIAL);
  return material !== null && measureEntropy(material[0]) >= 4;
}
