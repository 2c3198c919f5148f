import { isPlainObject } from "@bayad/simulator-kit";
import { validationError } from "./api-error.js";

/** Reads a request body's fields, each refusal a 400 API_VALIDATION_ERROR naming the field. */
export class BodyReader {
  constructor(private readonly body: Record<string, unknown>) {}

  has(field: string): boolean {
    return this.body[field] !== undefined && this.body[field] !== null;
  }

  raw(field: string): unknown {
    return this.body[field];
  }

  string(field: string, { min = 1, max = 255 }: { min?: number; max?: number } = {}): string {
    const value = this.body[field];
    if (value === undefined || value === null) throw validationError(`${field} is required.`);
    if (typeof value !== "string" || value.length < min || value.length > max) {
      throw validationError(`${field} must be a string of ${min} to ${max} characters.`);
    }
    return value;
  }

  optionalString(field: string, limits?: { min?: number; max?: number }): string | undefined {
    return this.has(field) ? this.string(field, limits) : undefined;
  }

  oneOf<T extends string>(field: string, values: readonly T[]): T {
    const value = this.body[field];
    if (value === undefined || value === null) throw validationError(`${field} is required.`);
    if (typeof value !== "string" || !(values as readonly string[]).includes(value)) {
      throw validationError(`${field} must be one of ${values.join(", ")}.`);
    }
    return value as T;
  }

  object(field: string): Record<string, unknown> {
    const value = this.body[field];
    if (!isPlainObject(value)) throw validationError(`${field} is required and must be an object.`);
    return value;
  }

  optionalObject(field: string): Record<string, unknown> | undefined {
    return this.has(field) ? this.object(field) : undefined;
  }

  /** `metadata` within Xendit's limits [O]: up to 50 keys of ≤ 40 characters, string values ≤ 500. */
  metadata(): Record<string, unknown> | null {
    const metadata = this.optionalObject("metadata");
    if (!metadata) return null;
    const entries = Object.entries(metadata);
    const fits = entries.length <= 50 && entries.every(([key, value]) => key.length <= 40 && (typeof value !== "string" || value.length <= 500));
    if (!fits) throw validationError("metadata may hold at most 50 keys of up to 40 characters, with values of up to 500 characters.");
    return metadata;
  }
}
