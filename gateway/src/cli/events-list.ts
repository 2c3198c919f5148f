import { parseArgs } from "node:util";
import { UsageError, optional, reportFailure, type CliIo } from "./cli-support.js";
import { publicApiFrom, publicApiOptions } from "./public-api.js";

/** `bayad events list`: the project's events, newest first, as GET /api/v1/events pages them. */

interface ListedEvent {
  id: string;
  type: string;
  createdAt: string;
  environment: string;
  data: unknown;
}

interface EventPage {
  events: ListedEvent[];
  nextCursor?: string;
}

const defaultLimit = 20;
/** The most one page holds (the API's `limit` maximum). */
const pageMax = 100;

export async function runEventsList(
  args: readonly string[],
  env: Record<string, string | undefined>,
  fetchImpl: typeof fetch,
  io: CliIo,
): Promise<number> {
  try {
    const { values } = parseArgs({
      args: [...args],
      options: { ...publicApiOptions, type: { type: "string" }, limit: { type: "string" } },
      strict: true,
      allowPositionals: false,
    });
    const limit = limitOf(optional(values, "limit"));
    const type = optional(values, "type");
    const api = publicApiFrom(values, env, fetchImpl);

    // Pages are followed until `limit` events are in hand or the last page is read.
    const events: ListedEvent[] = [];
    let cursor: string | undefined;
    do {
      const query = new URLSearchParams({ limit: String(Math.min(pageMax, limit - events.length)) });
      if (type) query.set("type", type);
      if (cursor) query.set("cursor", cursor);
      const page = await api.request<EventPage>("GET", `api/v1/events?${query.toString()}`);
      events.push(...page.events);
      cursor = page.nextCursor;
    } while (cursor && events.length < limit);

    if (values.json === true) io.out(JSON.stringify(events, null, 2));
    else if (events.length === 0) io.out("No events.");
    else for (const event of events) io.out(`${event.createdAt}  ${event.type.padEnd(24)}  ${event.id}`);
    return 0;
  } catch (error) {
    return reportFailure(error, io);
  }
}

function limitOf(text: string | undefined): number {
  if (text === undefined) return defaultLimit;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`--limit must be a whole number of at least 1, got "${text}"`);
  return Number(text);
}
