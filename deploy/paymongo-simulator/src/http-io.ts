import type { IncomingMessage } from "node:http";
import { isPlainObject, parseJson, readBody as readBodyOr } from "@bayad/simulator-kit";
import { PaymongoSimulatorError } from "./api-error.js";

const invalidBody = (detail: string) => () => new PaymongoSimulatorError(400, [{ code: "parameter_invalid", detail }]);

/** The request body as text; past 1 MiB a 400 `parameter_invalid`. */
export function readBody(req: IncomingMessage): Promise<string> {
  return readBodyOr(req, invalidBody("The request body is too large."));
}

/** A JSON body (undefined when empty); not JSON, a 400 `parameter_invalid`. */
export function parseBody(text: string): unknown {
  return parseJson(text, invalidBody("The request body is not valid JSON."));
}

/** `data.attributes` of a JSON:API request; an empty body stands for no attributes. */
export function attributesOf(text: string): Record<string, unknown> {
  const body = parseBody(text);
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
