import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { parseArgs } from "node:util";
import { CommandFailure, UsageError, defaultUrl, describe, optional, reportFailure, type CliIo, type Values } from "./cli-support.js";
import { publicApiOptions } from "./public-api.js";

/**
 * `bayad records export`: GET /api/v1/payments/records/export with a project API key, the CSV
 * streamed to standard output or to --output as it arrives (never held whole). A transfer that
 * breaks off is reported and exits 1; a partial --output file is removed, so a file left behind
 * is always a whole export.
 */

/** Each filter option and the query parameter it sets (docs/api/records.md, "Search"). */
const filterOptions = {
  type: "type",
  status: "status",
  "reference-id": "referenceId",
  "related-resource-id": "relatedResourceId",
  "created-after": "createdAfter",
  "created-before": "createdBefore",
  customer: "customerId",
  metadata: "metadata",
  "amount-min": "amountMin",
  "amount-max": "amountMax",
  "payment-method": "paymentMethod",
  "provider-account": "providerAccountId",
} as const;

export async function runRecordsExport(
  args: readonly string[],
  env: Record<string, string | undefined>,
  fetchImpl: typeof fetch,
  io: CliIo,
): Promise<number> {
  let output: string | undefined;
  try {
    const { values } = parseArgs({
      args: [...args],
      options: {
        ...publicApiOptions,
        output: { type: "string" },
        ...Object.fromEntries(Object.keys(filterOptions).map((name) => [name, { type: "string" } as const])),
      },
      strict: true,
      allowPositionals: false,
    });
    output = optional(values, "output");
    const url = exportUrl(values, env);
    const apiKey = optional(values, "api-key") ?? env.BAYAD_API_KEY?.trim();
    if (!apiKey) throw new UsageError("give a project API key with --api-key or BAYAD_API_KEY");

    let response: Response;
    try {
      // No overall timeout: an export may run for minutes (the gateway's RECORDS_EXPORT_TIMEOUT_MS bounds it).
      response = await fetchImpl(url, { headers: { authorization: `Bearer ${apiKey}`, accept: "text/csv, application/json" } });
    } catch (error) {
      throw new CommandFailure(`error: cannot reach ${url.origin}: ${describe(error)}`);
    }
    if (response.status !== 200 || !response.body) throw await failureOf(response, url);

    const destination = output === undefined ? stdoutOf(io) : createWriteStream(output, { flags: "wx" });
    try {
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), destination, { end: output !== undefined });
    } catch (error) {
      if (output !== undefined) await rm(output, { force: true });
      throw new CommandFailure(`error: the export broke off before its end (${describe(error)})${output === undefined ? "; the output is incomplete" : "; nothing was kept"}`);
    }
    if (output !== undefined) io.err(`Wrote ${output}.`);
    return 0;
  } catch (error) {
    return reportFailure(error, io);
  }
}

function exportUrl(values: Values, env: Record<string, string | undefined>): URL {
  const baseText = optional(values, "gateway") ?? (env.BAYAD_URL?.trim() || defaultUrl);
  let url: URL;
  try {
    url = new URL("api/v1/payments/records/export", baseText.endsWith("/") ? baseText : `${baseText}/`);
  } catch {
    throw new UsageError(`the gateway URL is not a valid URL: "${baseText}"`);
  }
  for (const [option, parameter] of Object.entries(filterOptions)) {
    const value = optional(values, option);
    if (value !== undefined) url.searchParams.set(parameter, value);
  }
  return url;
}

/** The gateway's error envelope as a failure; anything else as the HTTP status. */
async function failureOf(response: Response, url: URL): Promise<CommandFailure> {
  const envelope = (await response.json().catch(() => undefined)) as
    | { success?: unknown; error?: { code?: unknown; message?: unknown; details?: unknown } }
    | undefined;
  const error = envelope?.success === false ? envelope.error : undefined;
  if (typeof error?.code === "string" && typeof error.message === "string") {
    const details = Array.isArray(error.details) ? error.details.filter((detail): detail is string => typeof detail === "string") : [];
    return new CommandFailure(`${error.code}: ${error.message}`, details);
  }
  return new CommandFailure(`error: unexpected response from ${url.origin}${url.pathname}: HTTP ${response.status}`);
}

function stdoutOf(io: CliIo): Writable {
  if (!io.byteOut) throw new UsageError("give --output <file>: this output takes no bytes");
  return io.byteOut;
}
