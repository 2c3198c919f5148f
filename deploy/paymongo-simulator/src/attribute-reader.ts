import { isPlainObject } from "@bayad/simulator-kit";
import { PaymongoSimulatorError, type ErrorEntry } from "./api-error.js";

type Attrs = Record<string, unknown>;

/**
 * Reads a request's `data.attributes` and collects every problem before answering, since
 * PayMongo's `errors` array can list several at once. Each problem names its field in
 * `source.pointer` (`attributes.amount`) and `source.attribute` (`amount`).
 */
export class AttributeReader {
  constructor(
    private readonly attrs: Attrs,
    private readonly prefix = "",
    private readonly problems: ErrorEntry[] = [],
  ) {}

  fail(name: string, code: string, detail: string): void {
    const attribute = `${this.prefix}${name}`;
    this.problems.push({ code, detail, source: { pointer: `attributes.${attribute}`, attribute } });
  }

  has(name: string): boolean {
    return this.attrs[name] !== undefined && this.attrs[name] !== null;
  }

  private present(name: string, required: boolean): boolean {
    if (this.has(name)) return true;
    if (required) this.fail(name, "parameter_required", `${this.prefix}${name} is required.`);
    return false;
  }

  string(name: string, opts: { required?: boolean; maxLength?: number } = {}): string | undefined {
    if (!this.present(name, opts.required ?? false)) return undefined;
    const value = this.attrs[name];
    if (typeof value !== "string") {
      this.fail(name, "parameter_data_type_invalid", `${this.prefix}${name} must be a string.`);
      return undefined;
    }
    if (opts.required && value.trim() === "") {
      this.fail(name, "parameter_required", `${this.prefix}${name} cannot be blank.`);
      return undefined;
    }
    if (opts.maxLength !== undefined && value.length > opts.maxLength) {
      this.fail(name, "parameter_above_maximum", `${this.prefix}${name} must be at most ${opts.maxLength} characters.`);
      return undefined;
    }
    return value;
  }

  integer(name: string, opts: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    if (!this.present(name, opts.required ?? false)) return undefined;
    const value = this.attrs[name];
    if (typeof value !== "number" || !Number.isInteger(value)) {
      this.fail(name, "parameter_data_type_invalid", `${this.prefix}${name} must be an integer.`);
      return undefined;
    }
    if (opts.min !== undefined && value < opts.min) {
      this.fail(name, "parameter_below_minimum", `${this.prefix}${name} cannot be less than ${opts.min}.`);
      return undefined;
    }
    if (opts.max !== undefined && value > opts.max) {
      this.fail(name, "parameter_above_maximum", `${this.prefix}${name} cannot be more than ${opts.max}.`);
      return undefined;
    }
    return value;
  }

  boolean(name: string): boolean | undefined {
    if (!this.present(name, false)) return undefined;
    const value = this.attrs[name];
    if (typeof value !== "boolean") {
      this.fail(name, "parameter_data_type_invalid", `${this.prefix}${name} must be a boolean.`);
      return undefined;
    }
    return value;
  }

  oneOf<T extends string>(name: string, values: readonly T[], opts: { required?: boolean } = {}): T | undefined {
    const value = this.string(name, opts);
    if (value === undefined) return undefined;
    if (!(values as readonly string[]).includes(value)) {
      this.fail(name, "parameter_invalid", `${this.prefix}${name} must be one of ${values.join(", ")}.`);
      return undefined;
    }
    return value as T;
  }

  url(name: string, opts: { required?: boolean } = {}): string | undefined {
    const value = this.string(name, opts);
    if (value === undefined) return undefined;
    if (!/^https?:\/\/[^\s]+$/.test(value) || !URL.canParse(value)) {
      this.fail(name, "parameter_format_invalid", `${this.prefix}${name} must be a valid http(s) URL.`);
      return undefined;
    }
    return value;
  }

  stringList<T extends string>(
    name: string,
    opts: { required?: boolean; allowed?: readonly T[] } = {},
  ): T[] | undefined {
    if (!this.present(name, opts.required ?? false)) return undefined;
    const value = this.attrs[name];
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
      this.fail(name, "parameter_data_type_invalid", `${this.prefix}${name} must be an array of strings.`);
      return undefined;
    }
    if (opts.required && value.length === 0) {
      this.fail(name, "parameter_required", `${this.prefix}${name} must not be empty.`);
      return undefined;
    }
    const strings = value as string[];
    const allowed = opts.allowed as readonly string[] | undefined;
    const unknown = allowed ? strings.filter((v) => !allowed.includes(v)) : [];
    if (unknown.length > 0) {
      this.fail(name, "parameter_invalid", `${this.prefix}${name} has unsupported values: ${unknown.join(", ")}.`);
      return undefined;
    }
    return strings as T[];
  }

  /** Metadata is a flat object of strings ([3P]: PayMongo refuses nested values). */
  metadata(name = "metadata"): Record<string, string> | undefined {
    if (!this.present(name, false)) return undefined;
    const value = this.attrs[name];
    if (!isPlainObject(value) || Object.values(value).some((v) => typeof v !== "string")) {
      this.fail(name, "parameter_invalid", `${this.prefix}${name} must be an object whose values are strings.`);
      return undefined;
    }
    return { ...(value as Record<string, string>) };
  }

  object(name: string): Record<string, unknown> | undefined {
    if (!this.present(name, false)) return undefined;
    const value = this.attrs[name];
    if (!isPlainObject(value)) {
      this.fail(name, "parameter_data_type_invalid", `${this.prefix}${name} must be an object.`);
      return undefined;
    }
    return value;
  }

  /** A reader for an element of a nested list, whose problems land in this reader. */
  nested(attrs: Record<string, unknown>, prefix: string): AttributeReader {
    // The child shares this reader's list, so one `done()` answers every problem.
    return new AttributeReader(attrs, `${this.prefix}${prefix}`, this.problems);
  }

  /** Throws the collected problems as one 400, or returns when there are none. */
  done(): void {
    if (this.problems.length > 0) throw new PaymongoSimulatorError(400, [...this.problems]);
  }
}
