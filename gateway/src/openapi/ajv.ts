import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { OpenApiDocument } from "./document.js";

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export const documentSchemaId = "openapi.json";

/**
 * An Ajv instance that knows the whole document, so `openapi.json#/components/schemas/X` refs
 * resolve. Query and path values arrive as text, so their instance coerces types.
 */
export function createAjv(doc: OpenApiDocument, options: { coerceTypes: boolean }): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    useDefaults: true,
    coerceTypes: options.coerceTypes,
  });
  addFormats(ajv);
  ajv.addSchema(doc, documentSchemaId);
  return ajv;
}

/** Rewrites the document's local refs (#/components/…) so they resolve from a standalone schema. */
export function absoluteRefs<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${documentSchemaId}#/`)) as T;
}

/**
 * One "field: problem" string per violation, the field named as the client wrote it
 * ("amount.amountMinor", "limit", "checkoutId"); `whole` names the value itself ("body").
 */
export function describeViolations(errors: ErrorObject[] | null | undefined, whole: string): string[] {
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    // An if/then's failure is reported again, naming no field, beside the errors of its `then`;
    // likewise a propertyNames failure, beside the error about the name.
    if (error.keyword === "if" || error.keyword === "propertyNames") continue;
    const at = pointerToField(error.instancePath);
    const field = at || whole;
    let text: string;
    if (error.propertyName !== undefined) {
      const problem = error.keyword === "not" ? "is not allowed" : (error.message ?? "is invalid");
      seen.add(`${field}: the property name ${JSON.stringify(error.propertyName)} ${problem}`);
      continue;
    }
    switch (error.keyword) {
      case "required":
        text = `${join(at, (error.params as { missingProperty: string }).missingProperty)}: is required`;
        break;
      case "not":
        // The document uses `not` for a property that another one excludes (channels or recipient).
        text = `${field}: is not allowed here`;
        break;
      case "additionalProperties":
        text = `${join(at, (error.params as { additionalProperty: string }).additionalProperty)}: is not allowed`;
        break;
      case "enum":
        text = `${field}: must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(", ")}`;
        break;
      case "maxProperties":
        text = (error.params as { limit: number }).limit === 0 ? `${field}: must be empty` : `${field}: ${error.message}`;
        break;
      default:
        text = `${field}: ${error.message ?? "is invalid"}`;
    }
    seen.add(text);
  }
  return [...seen];
}

function pointerToField(pointer: string): string {
  if (pointer === "") return "";
  return pointer
    .slice(1)
    .split("/")
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .join(".");
}

function join(at: string, name: string): string {
  return at ? `${at}.${name}` : name;
}
