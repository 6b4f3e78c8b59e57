/**
 * Why a memory took no part in the answer. `file` is the memory's relative path, except for the
 * model's drops (`unknown-name`, `duplicate`, `over-five`), where it is the name the model
 * returned, as shown to anyone: secrets masked, control and invisible characters escaped, at most
 * 200 characters.
 */
export type DropReason =
  | "already-surfaced" // R4: shown earlier in the conversation, removed before selection
  | "over-limit" // S4: older than the newest 200
  | "unknown-name" // R5: the model named a file that is not in the manifest
  | "duplicate" // C8: the model named the same file twice
  | "over-five" // R5: relevant, but five were already chosen
  | "tool-in-use" // R2: usage reference for a tool the agent is already using
  | "unreadable"; // chosen, but the file could not be read for injection

export type DroppedMemory = { file: string; reason: DropReason };

/**
 * Beyond the newest 200, this many are still named in a recall's "over-limit" list: the server
 * and `teammem recall` alike (a folder of thousands printed thousands of lines).
 */
export const OVER_LIMIT_NAMED = 20;
