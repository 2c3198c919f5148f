import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { Webhook } from "standardwebhooks";
import { CommandFailure, UsageError, describe, optional, reportFailure, required, type CliIo } from "./cli-support.js";
import { publicApiFrom, publicApiOptions, type PublicApi } from "./public-api.js";

/**
 * `bayad listen --forward-to <url>`: a developer's app on localhost receives the project's test
 * events as it would in production. The CLI listens on a loopback port, registers a temporary
 * test-mode webhook endpoint pointing there (the platform's webhooks service does the delivering,
 * retries included), checks each delivery's signature, and passes it on to the app unchanged:
 * same body, same webhook-* headers, so the app verifies it with the secret printed at start. The
 * app's status goes back to the platform, so a failure is retried like any other. Ctrl-C removes
 * the endpoint.
 */

interface CreatedEndpoint {
  webhookEndpointId: string;
  secret: string;
  enabledEvents: string[];
}

/** What the CLI reports about one delivery it received. */
type DeliveryLine = {
  kind: "delivery";
  at: string;
  eventType: string;
  eventId: string;
  /** The local app's status; null when the delivery was not forwarded or the app did not answer. */
  status: number | null;
  error?: string;
  /** A payment intent paid by redirect: its method (`gcash`, `online_banking:bdo`) and, while the payer has yet to act, the page. */
  paymentMethod?: string;
  redirectUrl?: string;
  /** A QR Ph intent whose code is unpaid (`payment_intent.requires_action`): the image to show the payer. */
  qrCodeImageUrl?: string;
};

type IntentDetails = Pick<DeliveryLine, "paymentMethod" | "redirectUrl" | "qrCodeImageUrl">;

/**
 * What a delivery's line shows of a payment intent the payer acts on, so a developer sees which
 * method paid and, on `payment_intent.requires_action`, where the payer goes: the wallet's or
 * bank's page, or the QR Ph code's image.
 */
function intentDetailsOf(data: unknown): IntentDetails {
  if (typeof data !== "object" || data === null) return {};
  const { paymentMethod, nextAction, qrCodeImageUrl } = data as {
    paymentMethod?: { type?: unknown; bankCode?: unknown };
    nextAction?: { url?: unknown };
    qrCodeImageUrl?: unknown;
  };
  const type = typeof paymentMethod?.type === "string" ? paymentMethod.type : undefined;
  const bank = typeof paymentMethod?.bankCode === "string" ? `:${paymentMethod.bankCode}` : "";
  return {
    ...(type !== undefined ? { paymentMethod: `${type}${bank}` } : {}),
    ...(typeof nextAction?.url === "string" ? { redirectUrl: nextAction.url } : {}),
    ...(typeof qrCodeImageUrl === "string" ? { qrCodeImageUrl } : {}),
  };
}

/** The text line's tail: `  (gcash → https://…/pay)`, `  (qrph → https://…/code.png)`, or nothing. */
function intentTextOf(details: IntentDetails): string {
  const method = details.paymentMethod ?? (details.qrCodeImageUrl !== undefined ? "qrph" : undefined);
  if (method === undefined) return "";
  const goesTo = details.redirectUrl ?? details.qrCodeImageUrl;
  return `  (${method}${goesTo !== undefined ? ` → ${goesTo}` : ""})`;
}

const endpointDescription = "bayad listen (temporary)";
/** The platform gives an attempt 15 s by default (WEBHOOK_TIMEOUT); the app gets as long. */
const forwardTimeoutMs = 15_000;
const signedHeaders = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

export async function runListen(
  args: readonly string[],
  env: Record<string, string | undefined>,
  fetchImpl: typeof fetch,
  io: CliIo,
  stop?: AbortSignal,
): Promise<number> {
  let api: PublicApi;
  let forwardTo: URL;
  let enabledEvents: string[];
  let json: boolean;
  try {
    const { values } = parseArgs({
      args: [...args],
      options: { ...publicApiOptions, "forward-to": { type: "string" }, events: { type: "string" } },
      strict: true,
      allowPositionals: false,
    });
    forwardTo = forwardUrlOf(required(values, "forward-to"));
    enabledEvents = eventsOf(optional(values, "events"));
    json = values.json === true;
    api = publicApiFrom(values, env, fetchImpl);
  } catch (error) {
    return reportFailure(error, io);
  }
  if (api.apiKey.startsWith("sk_live_")) {
    io.err("error: bayad listen takes a test-mode API key (sk_test_…), never a live one.");
    return 2;
  }

  const stopping = stop ?? interruptSignal();
  const print = (line: Record<string, unknown>, text: string) => io.out(json ? JSON.stringify(line) : text);
  const relay = { webhook: undefined as Webhook | undefined, forwardTo, fetchImpl, print };
  const server = createServer((request, response) => {
    handleDelivery(relay, request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end();
      io.err(`error: ${describe(error)}`);
    });
  });
  let endpoint: CreatedEndpoint | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", resolve);
    });
    const listeningOn = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bayad-listen`;
    endpoint = await register(api, listeningOn, enabledEvents);
    relay.webhook = new Webhook(endpoint.secret);
    print(
      { kind: "ready", secret: endpoint.secret, webhookEndpointId: endpoint.webhookEndpointId, enabledEvents: endpoint.enabledEvents, forwardTo: forwardTo.href, listeningOn },
      `Ready. Your webhook signing secret is ${endpoint.secret} (endpoint ${endpoint.webhookEndpointId}, ` +
        `events ${endpoint.enabledEvents.join(",")}, forwarding to ${forwardTo.href}). Press Ctrl-C to stop.`,
    );
    if (!stopping.aborted) await new Promise((resolve) => stopping.addEventListener("abort", resolve, { once: true }));
  } catch (error) {
    await closeServer(server);
    return reportFailure(error, io);
  }

  await closeServer(server);
  try {
    await api.request("DELETE", `api/v1/webhook-endpoints/${encodeURIComponent(endpoint.webhookEndpointId)}`);
  } catch (error) {
    const reason = error instanceof CommandFailure ? error.message : describe(error);
    io.err(`error: could not remove endpoint ${endpoint.webhookEndpointId} (${reason}); delete it with DELETE /api/v1/webhook-endpoints/${endpoint.webhookEndpointId}`);
    return 1;
  }
  print({ kind: "stopped", webhookEndpointId: endpoint.webhookEndpointId, deleted: true }, `Stopped. Endpoint ${endpoint.webhookEndpointId} removed.`);
  return 0;
}

async function register(api: PublicApi, url: string, enabledEvents: string[]): Promise<CreatedEndpoint> {
  try {
    return await api.request<CreatedEndpoint>("POST", "api/v1/webhook-endpoints", { url, enabledEvents, description: endpointDescription });
  } catch (error) {
    if (error instanceof CommandFailure && error.message.startsWith("WEBHOOK_URL_NOT_ALLOWED")) {
      const hint = "this gateway does not deliver to loopback addresses: run it with WEBHOOKS_ALLOW_PRIVATE_TARGETS=true (npm start sets it)";
      throw new CommandFailure(error.message, [...error.details, hint]);
    }
    throw error;
  }
}

interface Relay {
  /** The endpoint's verifier; absent until the endpoint exists (nothing can deliver before that). */
  webhook: Webhook | undefined;
  forwardTo: URL;
  fetchImpl: typeof fetch;
  print(line: DeliveryLine, text: string): void;
}

/** Checks one delivery from the platform, forwards it to the app, and answers with the app's status. */
async function handleDelivery(relay: Relay, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  // The raw bytes: the signature covers them exactly.
  const body = Buffer.concat(chunks);
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) headers[name] = String(request.headers[name] ?? "");
  const at = new Date().toISOString();
  let details: IntentDetails = {};
  const report = (eventType: string, eventId: string, status: number | null, error?: string) =>
    relay.print(
      { kind: "delivery", at, eventType, eventId, status, ...(error === undefined ? {} : { error }), ...details },
      `${at}  ${eventType}  ${eventId}  → ${status ?? error}${intentTextOf(details)}`,
    );

  let event: { id?: unknown; type?: unknown; data?: unknown };
  try {
    if (!relay.webhook) throw new Error("not registered yet");
    event = relay.webhook.verify(body.toString("utf8"), headers) as typeof event;
  } catch {
    // Not from the platform with this endpoint's secret: the app never sees it.
    response.writeHead(400, { "content-type": "text/plain" }).end("signature did not verify");
    report("unknown", headers["webhook-id"] || "unknown", null, "signature did not verify; not forwarded");
    return;
  }
  const eventType = typeof event.type === "string" ? event.type : "unknown";
  const eventId = typeof event.id === "string" ? event.id : headers["webhook-id"];
  details = intentDetailsOf(event.data);

  let status: number;
  try {
    const answer = await relay.fetchImpl(relay.forwardTo, {
      method: "POST",
      headers: {
        "content-type": request.headers["content-type"] ?? "application/json",
        "user-agent": request.headers["user-agent"] ?? "Bayad-Webhooks/1",
        ...headers,
      },
      body,
      // A redirect fails the attempt on the platform too; it is reported, never followed.
      redirect: "manual",
      signal: AbortSignal.timeout(forwardTimeoutMs),
    });
    status = answer.status;
    await answer.arrayBuffer().catch(() => undefined);
  } catch (error) {
    // The app is down or too slow: the platform is told the attempt failed, and retries it.
    response.writeHead(502, { "content-type": "text/plain" }).end("the local app did not answer");
    report(eventType, eventId, null, describe(error));
    return;
  }
  response.writeHead(status, { "content-type": "text/plain" }).end();
  report(eventType, eventId, status);
}

function forwardUrlOf(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--forward-to must be a URL such as http://localhost:3000/webhooks, got "${text}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--forward-to must be an http or https URL, got "${text}"`);
  return url;
}

/** --events as a list, or every type (["*"]) when absent. */
function eventsOf(text: string | undefined): string[] {
  if (text === undefined) return ["*"];
  const types = text
    .split(",")
    .map((type) => type.trim())
    .filter((type) => type.length > 0);
  if (types.length === 0) throw new UsageError("--events names no event type");
  return types;
}

/** Aborted by the first Ctrl-C (SIGINT) or SIGTERM; a second one ends the process at once, as usual. */
function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  const onSignal = () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return controller.signal;
}

function closeServer(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
