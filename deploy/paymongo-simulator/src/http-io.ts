import type { IncomingMessage, ServerResponse } from "node:http";
import { PaymongoSimulatorError } from "./api-error.js";
import { isPlainObject } from "./attribute-reader.js";

const MAX_BODY_BYTES = 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new PaymongoSimulatorError(400, [{ code: "parameter_invalid", detail: "The request body is too large." }]);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PaymongoSimulatorError(400, [{ code: "parameter_invalid", detail: "The request body is not valid JSON." }]);
  }
}

/** `data.attributes` of a JSON:API request; an empty body stands for no attributes. */
export function attributesOf(text: string): Record<string, unknown> {
  const body = parseJson(text);
  if (body === undefined) return {};
  const data = isPlainObject(body) ? body["data"] : undefined;
  const attributes = isPlainObject(data) ? data["attributes"] : undefined;
  if (!isPlainObject(attributes)) {
    throw new PaymongoSimulatorError(400, [
      { code: "parameter_required", detail: "The body must be {\"data\":{\"attributes\":{…}}}.", source: { pointer: "data.attributes", attribute: "attributes" } },
    ]);
  }
  return attributes;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
