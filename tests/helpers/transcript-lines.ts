/**
 * Builds Claude Code session lines (C13) for tests: chain fields on every line, assistant replies
 * split one block per line sharing `message.id`, tool results pointing at their tool_use line.
 */
import { randomUUID } from "node:crypto";

export type Line = Record<string, unknown>;

export class TranscriptBuilder {
  readonly sessionId = randomUUID();
  readonly lines: Line[] = [];
  private last: string | null = null;
  private clock = Date.parse("2026-11-30T09:00:00Z");

  private chain(type: string, extra: Line): Line {
    const uuid = randomUUID();
    this.clock += 1000;
    const line = { type, uuid, parentUuid: this.last, timestamp: new Date(this.clock).toISOString(), sessionId: this.sessionId, cwd: "/repo", gitBranch: "main", version: "2.1.3", isSidechain: false, ...extra };
    this.lines.push(line);
    this.last = uuid;
    return line;
  }

  user(text: string, extra: Line = {}): string {
    return this.chain("user", { message: { role: "user", content: text }, ...extra }).uuid as string;
  }

  /** An assistant reply: one line per block; returns each tool_use line's uuid by tool id. */
  assistant(blocks: ({ text: string } | { tool: string; id: string; input: Line })[], extra: Line = {}): { uuid: string; toolLines: Record<string, string> } {
    const messageId = `msg_${randomUUID().slice(0, 8)}`;
    const toolLines: Record<string, string> = {};
    let first = "";
    for (const block of blocks) {
      const content = "text" in block ? [{ type: "text", text: block.text }] : [{ type: "tool_use", id: block.id, name: block.tool, input: block.input }];
      const line = this.chain("assistant", { message: { id: messageId, role: "assistant", model: "claude-sonnet-4-6", content }, ...extra });
      first ||= line.uuid as string;
      if ("tool" in block) toolLines[block.id] = line.uuid as string;
    }
    return { uuid: first, toolLines };
  }

  /** A tool_result user line whose parentUuid is the line holding its tool_use (C13). */
  toolResult(toolUseId: string, toolLineUuid: string, text: string, isError = false): string {
    const uuid = randomUUID();
    this.clock += 1000;
    this.lines.push({ type: "user", uuid, parentUuid: toolLineUuid, timestamp: new Date(this.clock).toISOString(), sessionId: this.sessionId, isSidechain: false, message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content: text, is_error: isError }] } });
    this.last = uuid;
    return uuid;
  }

  system(subtype: string, extra: Line = {}): string {
    return this.chain("system", { subtype, content: "", level: "info", ...extra }).uuid as string;
  }

  metadata(line: Line): void {
    this.lines.push(line);
  }

  /** JSONL text; `partialTail` appends a torn last line as a crash leaves it. */
  text(partialTail = false): string {
    const body = this.lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
    return partialTail ? `${body}{"type":"user","uuid":"torn","message":{"role":"us` : body;
  }
}
