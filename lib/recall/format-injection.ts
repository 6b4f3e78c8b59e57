import path from "node:path";
import { escapeControlCharacters } from "../memdir/escape-control-characters";
import { normaliseText } from "../memdir/frontmatter";
import { formatMemoryHeader } from "../memdir/format-memory-header";
import { MAX_HEAD_BYTES, readHeadSync } from "../memdir/read-head";
import { cutMemoryContent, MAX_INJECTED_LINES } from "./cut-memory-content";
import { maskForDisplayRemembered } from "./mask-secrets";

export type InjectionOptions = {
  memoryDir: string;
  /** The memory's path relative to memoryDir, with `/` (C5). */
  file: string;
  mtime: Date;
  now: Date;
  /** How the header names the memory directory; a server passes the agent's own path. */
  displayDir: string;
};

/**
 * R7, A3, C8: the text an agent is given for one recalled memory: a `<system-reminder>` holding
 * the A3 header, a blank line and the file (frontmatter included), cut to 200 lines / 4096 bytes
 * with a note that says where the whole file is, each secret masked. Throws when the file cannot
 * be read.
 */
export function formatInjection(options: InjectionOptions): string {
  // One line more than the limit tells "exactly 200 lines" from "more than 200".
  const head = readHeadSync(path.join(options.memoryDir, options.file), MAX_INJECTED_LINES + 1);
  const hasMore = head.bytesRead >= MAX_HEAD_BYTES && head.size > head.bytesRead;
  return formatInjectionText({ ...options, text: head.text, hasMore });
}

export type InjectionTextOptions = Omit<InjectionOptions, "memoryDir"> & {
  text: string;
  hasMore?: boolean;
  /** Why teammem's staleness checks doubt this memory (e.g. a cited file is gone), one line each. */
  doubts?: readonly string[];
};

/** formatInjection for text already at hand (a store blob): same header, cut, note and masking. */
export function formatInjectionText(options: InjectionTextOptions): string {
  const content = cutMemoryContent(normaliseText(options.text), options.hasMore ?? false);
  const shownPath = joinDisplayPath(options.displayDir, options.file);
  const note = content.isCut
    ? `\n\n[This memory was shortened for recall (at most ${MAX_INJECTED_LINES} lines or 4096 bytes). Read the whole file at ${shownPath}.]`
    : "";
  const header = formatMemoryHeader(shownPath, options.mtime, options.now);
  // Masked piece by piece inside the frame, never the framed whole: a key block the cut leaves
  // without its END line (or pasted in part) is masked to the end of its piece, and the note and
  // closing tag after it survive (masking the whole ran to the end and swallowed both).
  const mask = maskForDisplayRemembered;
  return `<system-reminder>\n${mask(header + formatDoubts(options.doubts))}\n\n${mask(content.text)}${mask(note)}\n</system-reminder>`;
}

// Escaped as in the manifest: a file name with a newline or ESC must not add a line to what the
// agent reads above the memory (or to the hook output a terminal shows).
function joinDisplayPath(displayDir: string, file: string): string {
  return escapeControlCharacters(`${displayDir.replace(/[\\/]+$/, "")}/${file}`);
}

// Beyond A3's age warning: the concrete reasons the checks found, so the agent verifies those first.
function formatDoubts(doubts: readonly string[] | undefined): string {
  if (!doubts?.length) return "";
  const lines = doubts.slice(0, 3).map((doubt) => `- ${doubt}`);
  const more = doubts.length > 3 ? `\n- and ${doubts.length - 3} more` : "";
  return `\nteammem's staleness checks doubt this memory; verify before relying on it:\n${lines.join("\n")}${more}`;
}
