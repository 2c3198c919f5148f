import { readFileSync } from "node:fs";
import { parse } from "yaml";

/** The parts of the OpenAPI 3.1 document the gateway reads. */
export interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  // A path item: its method keys hold an OpenApiOperation, its other keys (parameters, summary) anything.
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown>; parameters?: Record<string, OpenApiParameter> };
  [key: string]: unknown;
}

export interface OpenApiParameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema: Record<string, unknown>;
}

export interface OpenApiOperation {
  operationId: string;
  tags?: string[];
  parameters?: Array<OpenApiParameter | { $ref: string }>;
  requestBody?: { required?: boolean; content: { "application/json": { schema: unknown } } };
  responses: Record<string, { content?: { "application/json"?: { schema: unknown } } } | { $ref: string }>;
  security?: Array<Record<string, string[]>>;
  "x-scopes"?: string[];
  "x-credential"?: "service_token";
  "x-test-mode-only"?: boolean;
  /** Its answer carries a secret (a schema marked `x-secret`): kept sealed wherever it is kept. */
  "x-secret-response"?: boolean;
}

/** One operation of the document, as the gateway mounts it. */
export interface OperationSpec {
  operationId: string;
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** The OpenAPI path template, e.g. /api/v1/payments/customers/{customerId}. */
  path: string;
  /** The same path for @koa/router, e.g. /api/v1/payments/customers/:customerId. */
  routerPath: string;
  /** Matches a request path of this operation (any parameter values, an optional trailing slash). */
  pattern: RegExp;
  auth: "none" | "admin" | "bearer";
  scopes: readonly string[];
  credential: "any" | "service_token";
  /** Sandbox test helpers: live credentials are refused. */
  testModeOnly: boolean;
  /** Which idempotency rules apply, or null when the operation takes no Idempotency-Key. */
  idempotency: null | "payment" | "otp";
  /** Its answer carries a secret, so the idempotency record keeps it sealed (x-secret-response). */
  secretResponse: boolean;
  operation: OpenApiOperation;
}

export const documentUrl = new URL("../../openapi/openapi.yaml", import.meta.url);

let cached: OpenApiDocument | undefined;

/** The public contract, read once from gateway/openapi/openapi.yaml. */
export function loadOpenApiDocument(): OpenApiDocument {
  cached ??= parse(readFileSync(documentUrl, "utf8")) as OpenApiDocument;
  return cached;
}

const methods = ["get", "post", "patch", "put", "delete"] as const;

export function resolveParameter(doc: OpenApiDocument, parameter: OpenApiParameter | { $ref: string }): OpenApiParameter {
  if (!("$ref" in parameter)) return parameter;
  const name = parameter.$ref.replace("#/components/parameters/", "");
  const resolved = doc.components.parameters?.[name];
  if (!resolved) throw new Error(`OpenAPI parameter ${parameter.$ref} does not resolve`);
  return resolved;
}

/** Every operation of the document with the facts the gateway needs to mount it. */
export function listOperations(doc: OpenApiDocument): OperationSpec[] {
  const specs: OperationSpec[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of methods) {
      const operation = item[method] as OpenApiOperation | undefined;
      if (!operation) continue;
      const security = operation.security ?? (doc.security as OpenApiOperation["security"]) ?? [];
      const schemes = security.flatMap((requirement) => Object.keys(requirement));
      const takesKey = (operation.parameters ?? [])
        .map((p) => resolveParameter(doc, p))
        .some((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key");
      specs.push({
        operationId: operation.operationId,
        method: method.toUpperCase() as OperationSpec["method"],
        path,
        routerPath: path.replace(/\{([^}]+)\}/g, ":$1"),
        pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
        auth: schemes.includes("adminAuth") ? "admin" : schemes.includes("bearerAuth") ? "bearer" : "none",
        scopes: operation["x-scopes"] ?? [],
        credential: operation["x-credential"] ?? "any",
        testModeOnly: operation["x-test-mode-only"] === true,
        idempotency: takesKey ? ((operation.tags ?? []).includes("OTP") ? "otp" : "payment") : null,
        secretResponse: operation["x-secret-response"] === true,
        operation,
      });
    }
  }
  return specs;
}
