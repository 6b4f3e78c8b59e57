import type Anthropic from "@anthropic-ai/sdk";
import { speakerOf, type ViewMessage } from "../transcripts/conversation-view";

/** X5 for a server: the model may list and read team memories and propose; nothing else. */
export const EXTRACTION_TOOLS: Anthropic.Tool[] = [
  { name: "list_memories", description: "List the project's team memories (file, type, description).", input_schema: { type: "object", properties: {} } },
  {
    name: "read_memory",
    description: "Read one team memory file, to update it instead of writing a duplicate.",
    input_schema: { type: "object", properties: { file: { type: "string" } }, required: ["file"] },
  },
  {
    name: "propose_memory",
    description: "Propose one memory (new, or the full new text of an existing file). A lead reviews it before anyone sees it.",
    input_schema: {
      type: "object",
      properties: {
        file: { type: "string", description: "e.g. feedback_use_pnpm.md; an existing file name to update it" },
        type: { type: "string", enum: ["user", "feedback", "project", "reference"] },
        name: { type: "string" },
        description: { type: "string", description: "one line, specific enough to decide relevance" },
        body: { type: "string", description: "the rule or fact, then **Why:** and **How to apply:** lines" },
        scope: { type: "string", enum: ["team", "private"] },
        evidence: { type: "array", items: { type: "string" }, description: "uuids of the messages that show it, the user's first" },
      },
      required: ["file", "type", "name", "description", "body", "scope", "evidence"],
    },
  },
];

export const ALLOWED_TOOL_NAMES = new Set(EXTRACTION_TOOLS.map((tool) => tool.name));

export const EXTRACTION_SYSTEM_PROMPT = `You turn the latest messages of a Claude Code session into memories for a team's shared memory.

Work in two turns (X6): first issue every read you need (list_memories, read_memory) in one turn, then issue every propose_memory in the next. You have at most five turns.

Only save what the user said or clearly confirmed: explicit instructions, corrections, decisions, facts about the project that are not in the code. Never save the assistant's own suggestions, tool output, code, or anything derivable from the repository or git history.

Scope (T2): type "user" is always private. "feedback" is private unless it is a convention for the whole project ("integration tests hit a real database" is team, "no closing summaries" is one person's taste). "project" and "reference" are team.

When an existing memory covers the topic, propose the full updated text under its file name instead of a new file. Never copy credentials, tokens or passwords into a memory. If nothing is worth saving, propose nothing and say so.`;

/** The first user turn: the manifest of existing team memories and the messages after the cursor. */
export function buildExtractionUserMessage(manifest: string, messages: ViewMessage[]): string {
  const conversation = messages.map((message) => {
    const tools = message.tools.map((tool) => `    tool ${tool.name} ${tool.target}${tool.isError ? " (failed)" : ""}`).join("\n");
    return `[${message.uuid}] ${speakerOf(message.kind)}: ${message.text}${tools ? `\n${tools}` : ""}`;
  });
  return `Existing team memories:\n${manifest || "(none yet)"}\n\nNew messages (uuid in brackets):\n${conversation.join("\n")}`;
}
