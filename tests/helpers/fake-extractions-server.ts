/**
 * A stand-in for a teammem server's extractions route, for CLI tests of `teammem dream --project`
 * and `teammem extract --project`: it records each request's daily logs and answers one candidate
 * per log, proposed (a server with a model) or listed with `{"skipped": "no-model"}` (a server
 * without one); a session transcript gets `transcriptAnswer` as it is.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeExtractionsServer = {
  url: string;
  received: { file: string }[][];
  setHasModel: (hasModel: boolean) => void;
  /** What a request with a `transcript` is answered. */
  transcriptAnswer: Record<string, unknown>;
  close: () => Promise<void>;
};

export async function startFakeExtractionsServer(): Promise<FakeExtractionsServer> {
  const received: { file: string }[][] = [];
  let hasModel = true;
  const server = createServer((request, response) => void answer(request, response));

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { dailyLogs?: { file: string }[] };
    if (!body.dailyLogs) {
      response.writeHead(201, { "content-type": "application/json" });
      response.end(JSON.stringify(fake.transcriptAnswer));
      return;
    }
    const logs = body.dailyLogs;
    received.push(logs);
    const candidates = logs.map((log, index) => ({
      file: `project_topic_${index}.md`,
      type: "project",
      name: `Topic ${index}`,
      description: `From ${log.file}`,
      body: "A topic.\n",
      scope: "team",
      evidence: [{ uuid: log.file, role: "daily-log", excerpt: "…" }],
      proposal: hasModel ? { id: `proposal_${received.length}_${index}`, state: "submitted" } : { skipped: "no-model" },
    }));
    response.writeHead(201, { "content-type": "application/json" });
    response.end(JSON.stringify({ selector: hasModel ? "model" : "rules", candidates, ...(hasModel ? {} : { fallbackReason: "no model key configured: candidates listed, not proposed" }) }));
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const fake: FakeExtractionsServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    setHasModel: (value) => {
      hasModel = value;
    },
    transcriptAnswer: {},
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
