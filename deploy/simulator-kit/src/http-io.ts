import type { IncomingMessage, ServerResponse } from "node:http";

/** The largest request body a simulator reads, so one client cannot fill its memory. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The request body as text; past MAX_BODY_BYTES, `tooLarge()` (the simulator's own 400) is thrown. */
export async function readBody(req: IncomingMessage, tooLarge: () => Error): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A JSON body; undefined for an empty one, `invalid()` (the simulator's own 400) for one that is not JSON. */
export function parseJson(text: string, invalid: () => Error): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalid();
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}
