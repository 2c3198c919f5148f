import type { Writable } from "node:stream";

/** What every `bayad` command shares: its output channels, its usage error, its error wording. */

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** All of standard input (a secret piped in rather than named on the command line). */
  readStdin?(): Promise<string>;
  /** Where a command writes bytes as they come (`records export`'s CSV); never ended by it. */
  byteOut?: Writable;
}

/** A mistake in the command line: reported with a pointer to `bayad help`, exit status 2. */
export class UsageError extends Error {}

/** A request that failed, reported as one line (and the gateway's details, if any): exit status 1. */
export class CommandFailure extends Error {
  constructor(
    message: string,
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}

export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** The base URL every command resolves its paths against (`npm start`'s gateway port). */
export const defaultUrl = "http://127.0.0.1:8080";

export function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value.trim();
}

/** An option's trimmed text, or undefined when it is absent or blank. */
export function optional(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Prints a usage error (exit 2) or a failed request (exit 1); rethrows anything else. */
export function reportFailure(error: unknown, io: CliIo): number {
  // parseArgs reports unknown options and missing values with a TypeError whose message is
  // already one readable line.
  if (error instanceof UsageError || error instanceof TypeError) {
    io.err(`error: ${error.message}\nRun "bayad help" for usage.`);
    return 2;
  }
  if (error instanceof CommandFailure) {
    io.err([error.message, ...error.details.map((detail) => `  - ${detail}`)].join("\n"));
    return 1;
  }
  throw error;
}

/** fetch hides the real reason (ECONNREFUSED, a timeout) in `cause`; show it. */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === "string" ? `${code} (${cause.message})` : cause.message;
  }
  return error.message;
}
