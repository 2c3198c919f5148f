import { absoluteRefs, createAjv, describeViolations } from "./ajv.js";
import { listOperations, loadOpenApiDocument, type OpenApiDocument, type OperationSpec } from "./document.js";

export interface ResponseCheck {
  /** The operation the request matched, when one did. */
  operationId?: string;
  /** Empty when the body matches the document. */
  problems: string[];
}

/**
 * Checks a response against the OpenAPI document: that the operation declares the status and
 * that the body matches its schema. End-to-end tests run every response they receive through
 * this, so behaviour and document cannot drift apart.
 */
export function createResponseValidator(doc: OpenApiDocument = loadOpenApiDocument()) {
  const ajv = createAjv(doc, { coerceTypes: false });
  const operations = listOperations(doc).map((spec) => ({
    spec,
    pattern: new RegExp(`^${spec.path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

  const schemaFor = (spec: OperationSpec, status: number): unknown => {
    const responses = spec.operation.responses;
    let response = responses[String(status)] ?? responses.default;
    if (response && "$ref" in response) {
      const name = response.$ref.replace("#/components/responses/", "");
      response = (doc.components as Record<string, Record<string, unknown>>).responses?.[name] as typeof response;
    }
    return (response as { content?: Record<string, { schema: unknown }> } | undefined)?.content?.["application/json"]?.schema;
  };

  return function checkResponse(method: string, path: string, status: number, body: unknown): ResponseCheck {
    const pathOnly = path.split("?")[0] ?? path;
    const candidates = operations.filter((o) => o.pattern.test(pathOnly));
    const match =
      candidates.find((o) => o.spec.method === method.toUpperCase() && !o.spec.path.includes("{")) ??
      candidates.find((o) => o.spec.method === method.toUpperCase());
    if (!match) {
      // Unknown routes and methods are answered with the error envelope.
      const errorSchema = { $ref: "openapi.json#/components/schemas/ErrorEnvelope" };
      const validate = ajv.compile(errorSchema);
      return { problems: validate(body) ? [] : describeViolations(validate.errors, "body") };
    }
    const schema = schemaFor(match.spec, status);
    if (schema === undefined) {
      return { operationId: match.spec.operationId, problems: [`${match.spec.operationId} does not declare status ${status}`] };
    }
    const key = `${match.spec.operationId} ${status}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(absoluteRefs(schema) as object);
      compiled.set(key, validate);
    }
    return {
      operationId: match.spec.operationId,
      problems: validate(structuredClone(body)) ? [] : describeViolations(validate.errors, "body"),
    };
  };
}
