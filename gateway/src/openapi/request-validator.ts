import type { ValidateFunction } from "ajv";
import { AppError } from "@bayad/kit";
import { absoluteRefs, createAjv, describeViolations } from "./ajv.js";
import { resolveParameter, type OpenApiDocument, type OperationSpec } from "./document.js";
import { decodePathParameters, parseQueryString } from "./strict-decoding.js";
import { illFormedStrings } from "./well-formed-strings.js";

/** A request's parts after validation, with the document's defaults applied. */
export interface ValidatedInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

/**
 * A request's parts as received: the path parameters as the router captured them (still
 * percent-encoded, in the order of the path template), the query string, the parsed body.
 * The validator decodes the first two itself, strictly (strict-decoding.ts).
 */
export interface RawInput {
  pathSegments: readonly string[];
  querystring: string;
  body: unknown;
}

export type RequestValidator = (input: RawInput) => ValidatedInput;

interface ObjectSchema {
  type: "object";
  properties: Record<string, unknown>;
  required: string[];
  additionalProperties: boolean;
}

/**
 * Compiles one validator per operation from the OpenAPI document, so the document is the single
 * source of every bound. Header parameters (the Idempotency-Key) are checked by the idempotency
 * middleware, which owns their error codes.
 */
export function compileRequestValidators(doc: OpenApiDocument, operations: OperationSpec[]): Map<string, RequestValidator> {
  const textAjv = createAjv(doc, { coerceTypes: true });
  const bodyAjv = createAjv(doc, { coerceTypes: false });
  const validators = new Map<string, RequestValidator>();

  for (const spec of operations) {
    const parameters = (spec.operation.parameters ?? []).map((p) => resolveParameter(doc, p));
    const objectOf = (where: "path" | "query"): ObjectSchema => {
      const own = parameters.filter((p) => p.in === where);
      return {
        type: "object",
        properties: Object.fromEntries(own.map((p) => [p.name, absoluteRefs(p.schema)])),
        required: own.filter((p) => p.required).map((p) => p.name),
        // Unknown query parameters are refused, so a misspelt filter is never silently ignored.
        additionalProperties: false,
      };
    };
    const pathNames = [...spec.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    const validateParams = textAjv.compile(objectOf("path"));
    const validateQuery = textAjv.compile(objectOf("query"));
    const bodySpec = spec.operation.requestBody;
    const validateBody: ValidateFunction | undefined = bodySpec
      ? bodyAjv.compile(absoluteRefs(bodySpec.content["application/json"].schema) as object)
      : undefined;
    const bodyRequired = bodySpec?.required === true;

    validators.set(spec.operationId, (input) => {
      const details: string[] = [];
      // Decoding makes fresh objects, to which coercion and defaults write. A value that did not
      // decode is named already, and its schema would only call it missing.
      const params = decodePathParameters(pathNames, input.pathSegments, details);
      if (details.length === 0 && !validateParams(params)) details.push(...describeViolations(validateParams.errors, "path"));
      const decodingProblems = details.length;
      const query = parseQueryString(input.querystring, details);
      if (details.length === decodingProblems && !validateQuery(query)) details.push(...describeViolations(validateQuery.errors, "query"));

      let body: unknown = input.body;
      if (body === undefined) {
        if (bodyRequired) details.push("body: is required");
        body = {};
      } else if (!validateBody) {
        details.push("body: this operation takes no body");
      }
      if (validateBody && !validateBody(body)) details.push(...describeViolations(validateBody.errors, "body"));
      // Path and query values are well-formed once strictly decoded; a JSON body may not be.
      details.push(...illFormedStrings(input.body, "body"));

      if (details.length > 0) throw new AppError("VALIDATION_FAILED", "The request is invalid.", { details });
      return { params, query, body: body as Record<string, unknown> };
    });
  }
  return validators;
}
