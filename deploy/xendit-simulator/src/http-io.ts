import type { IncomingMessage, ServerResponse } from "node:http";
import { validationError } from "./api-error.js";

const MAX_BODY_BYTES = 1024 * 1024;

/** The request body as text, refused past 1 MiB so one client cannot fill the simulator's memory. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw validationError("The request body is too large.");
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A JSON object body; an empty body stands for `{}`. Anything else is API_VALIDATION_ERROR. */
export function parseObject(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw validationError("The request body is not valid JSON.");
  }
  if (!isPlainObject(body)) throw validationError("The request body must be a JSON object.");
  return body;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}
