import { absoluteRefs, createAjv, describeViolations, documentSchemaId } from "./ajv.js";
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
  const operations = listOperations(doc);
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  // Unknown routes and methods are answered with the error envelope.
  const validateErrorEnvelope = ajv.compile({ $ref: `${documentSchemaId}#/components/schemas/ErrorEnvelope` });

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
    const upper = method.toUpperCase();
    const candidates = operations.filter((spec) => spec.method === upper && spec.pattern.test(pathOnly));
    const match = candidates.find((spec) => !spec.path.includes("{")) ?? candidates[0];
    if (!match) {
      return { problems: validateErrorEnvelope(body) ? [] : describeViolations(validateErrorEnvelope.errors, "body") };
    }
    const schema = schemaFor(match, status);
    if (schema === undefined) {
      return { operationId: match.operationId, problems: [`${match.operationId} does not declare status ${status}`] };
    }
    const key = `${match.operationId} ${status}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(absoluteRefs(schema) as object);
      compiled.set(key, validate);
    }
    return {
      operationId: match.operationId,
      problems: validate(structuredClone(body)) ? [] : describeViolations(validate.errors, "body"),
    };
  };
}
