import type { IncomingMessage } from "node:http";
import { isPlainObject, parseJson, readBody as readBodyOr } from "@bayad/simulator-kit";
import { validationError } from "./api-error.js";

/** The request body as text; past 1 MiB, API_VALIDATION_ERROR. */
export function readBody(req: IncomingMessage): Promise<string> {
  return readBodyOr(req, () => validationError("The request body is too large."));
}

/** A JSON object body; an empty body stands for `{}`. Anything else is API_VALIDATION_ERROR. */
export function parseObject(text: string): Record<string, unknown> {
  const body = parseJson(text, () => validationError("The request body is not valid JSON.")) ?? {};
  if (!isPlainObject(body)) throw validationError("The request body must be a JSON object.");
  return body;
}
