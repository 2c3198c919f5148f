import { describe, expect, it } from "vitest";
import { listOperations, loadOpenApiDocument, type OpenApiDocument } from "./document.js";

/**
 * The idempotency records seal the answers of the operations marked `x-secret-response`: these
 * tests make sure that no operation whose answer carries a secret goes unmarked, so that a new
 * secret-returning operation cannot be forgotten.
 */

const doc = loadOpenApiDocument();

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null;

/** The component a local `$ref` names (#/components/schemas/X, #/components/responses/X). */
function resolve(document: OpenApiDocument, ref: string): unknown {
  const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
  if (!section || !name) throw new Error(`unexpected $ref ${ref}`);
  return (document.components as Record<string, Record<string, unknown> | undefined>)[section]?.[name];
}

/** Whether `schema`, or anything it holds or refers to, is marked `x-secret`. */
function holdsSecret(document: OpenApiDocument, schema: unknown, seen = new Set<string>()): boolean {
  if (Array.isArray(schema)) return schema.some((item) => holdsSecret(document, item, seen));
  if (!isNode(schema)) return false;
  if (schema["x-secret"] === true) return true;
  const ref = schema.$ref;
  if (typeof ref === "string") {
    if (seen.has(ref)) return false;
    seen.add(ref);
    return holdsSecret(document, resolve(document, ref), seen);
  }
  return Object.values(schema).some((value) => holdsSecret(document, value, seen));
}

/** The operations whose successful answers hold a secret, by the document's schemas. */
function operationsAnsweringSecrets(document: OpenApiDocument): string[] {
  return listOperations(document)
    .filter((spec) => Object.entries(spec.operation.responses).some(([status, response]) => status.startsWith("2") && holdsSecret(document, response)))
    .map((spec) => spec.operationId)
    .sort();
}

/** Names of properties that read like secrets but hold none: when one expires, its last characters. */
const notSecrets = new Set(["previousSecretExpiresAt", "secretKeyLast4", "tokenLast4"]);
const secretName = /secret|token|apikey|password|passphrase/i;

/** "Schema.property" for each property named like a secret that is not marked `x-secret`. */
function unmarkedSecretProperties(document: OpenApiDocument): string[] {
  const unmarked: string[] = [];
  const visit = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((item, index) => visit(item, `${at}[${index}]`));
    if (!isNode(node)) return;
    if (isNode(node.properties)) {
      for (const [name, property] of Object.entries(node.properties)) {
        if (!secretName.test(name) || notSecrets.has(name)) continue;
        const marked = isNode(property) && (property["x-secret"] === true || (typeof property.$ref === "string" && holdsSecret(document, property)));
        if (!marked) unmarked.push(`${at}.${name}`);
      }
    }
    for (const [key, value] of Object.entries(node)) visit(value, `${at}/${key}`);
  };
  visit(document.components.schemas, "#/components/schemas");
  visit(document.paths, "#/paths");
  return unmarked;
}

describe("operations whose answers carry a secret", () => {
  it("are exactly those marked x-secret-response, so their idempotency records seal them", () => {
    const marked = listOperations(doc)
      .filter((spec) => spec.secretResponse)
      .map((spec) => spec.operationId)
      .sort();

    expect(marked).toEqual(operationsAnsweringSecrets(doc));
    // The idempotent ones among them, whose answers a record keeps for the replay window.
    expect(listOperations(doc).filter((spec) => spec.secretResponse && spec.idempotency !== null).map((spec) => spec.operationId).sort()).toEqual([
      "createWebhookEndpoint",
      "rotateWebhookEndpointSecret",
    ]);
  });

  it("are found through any schema that marks a value x-secret, however deep", () => {
    const copy = structuredClone(doc);
    // A new idempotent operation answering a customer with a secret in it, left unmarked.
    const schemas = copy.components.schemas as Record<string, Node>;
    const customer = schemas.Customer as { properties: Record<string, unknown> };
    customer.properties.portalSecret = { type: "string", "x-secret": true };

    expect(operationsAnsweringSecrets(copy)).toContain("createCustomer");
    expect(listOperations(copy).find((spec) => spec.operationId === "createCustomer")?.secretResponse).toBe(false);
  });

  it("hold every value named like a secret marked x-secret", () => {
    expect(unmarkedSecretProperties(doc)).toEqual([]);

    const copy = structuredClone(doc);
    (copy.components.schemas.Customer as { properties: Record<string, unknown> }).properties.portalToken = { type: "string" };
    expect(unmarkedSecretProperties(copy)).toEqual(["#/components/schemas/Customer.portalToken"]);
  });
});
