import http from "node:http";
import { randomUUID } from "node:crypto";
import type { Duplex } from "node:stream";
import { AppError, ConfigError, envInt, type Env, type ErrorCode, type Logger } from "@bayad/kit";
import { errorEnvelope } from "./envelope.js";

/**
 * How long the gateway's HTTP server waits for a client, and how much it reads of a request
 * head. Node's defaults let a client hold a socket for minutes (a five-minute request timeout,
 * a connection check every 30 s); these bound what a slow or silent client can take.
 */
export interface HttpServerSettings {
  /** HTTP_HEADERS_TIMEOUT_MS: the request line and headers must arrive within this. */
  headersTimeoutMs: number;
  /** HTTP_REQUEST_TIMEOUT_MS: the whole request, body included, must arrive within this. */
  requestTimeoutMs: number;
  /** HTTP_KEEP_ALIVE_TIMEOUT_MS: how long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /**
   * HTTP_SOCKET_TIMEOUT_MS: a socket with no traffic either way for this long is closed (a
   * client that stops reading its response). Above RPC_TIMEOUT_MS, so a request waiting for a
   * service is never cut.
   */
  socketTimeoutMs: number;
  /** HTTP_MAX_HEADER_BYTES: the largest request head (431 above it). */
  maxHeaderBytes: number;
}

/** Reads the HTTP_* settings; a bad value or a contradictory pair throws a ConfigError. */
export function readHttpServerSettings(env: Env, rpcTimeoutMs: number): HttpServerSettings {
  const settings: HttpServerSettings = {
    headersTimeoutMs: envInt(env, "HTTP_HEADERS_TIMEOUT_MS", 10_000, { min: 100, max: 300_000 }),
    requestTimeoutMs: envInt(env, "HTTP_REQUEST_TIMEOUT_MS", 30_000, { min: 100, max: 600_000 }),
    keepAliveTimeoutMs: envInt(env, "HTTP_KEEP_ALIVE_TIMEOUT_MS", 5_000, { min: 100, max: 600_000 }),
    socketTimeoutMs: envInt(env, "HTTP_SOCKET_TIMEOUT_MS", 120_000, { min: 1_000, max: 3_600_000 }),
    maxHeaderBytes: envInt(env, "HTTP_MAX_HEADER_BYTES", 16_384, { min: 1_024, max: 131_072 }),
  };
  // Node refuses a headers timeout longer than the request timeout.
  if (settings.headersTimeoutMs > settings.requestTimeoutMs) {
    throw new ConfigError("HTTP_HEADERS_TIMEOUT_MS", `must not exceed HTTP_REQUEST_TIMEOUT_MS (${settings.requestTimeoutMs})`);
  }
  if (settings.socketTimeoutMs <= rpcTimeoutMs) {
    throw new ConfigError("HTTP_SOCKET_TIMEOUT_MS", `must be greater than RPC_TIMEOUT_MS (${rpcTimeoutMs})`);
  }
  return settings;
}

/**
 * The gateway's HTTP server: `handler` (the Koa app) with deliberate timeouts, and the errors
 * Node's HTTP layer finds before any handler runs (a head too large, a malformed request, a
 * client too slow) answered in the error envelope with a correlation id, like every other error.
 */
export function createHttpServer(handler: http.RequestListener, settings: HttpServerSettings, logger: Logger): http.Server {
  const server = http.createServer(
    {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      maxHeaderSize: settings.maxHeaderBytes,
      // How often Node looks for requests past their timeouts (30 s by default): often enough
      // that a timeout ends a slow client close to when it is due.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(settings.headersTimeoutMs / 4))),
    },
    handler,
  );
  server.timeout = settings.socketTimeoutMs;
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, logger));
  return server;
}

/** Node's parser and timeout errors, as catalogue codes (anything else the parser finds is a 400). */
function clientErrorCode(error: NodeJS.ErrnoException): ErrorCode {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return "HEADERS_TOO_LARGE";
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return "REQUEST_TIMEOUT";
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return "PAYLOAD_TOO_LARGE";
    default:
      return "MALFORMED_REQUEST";
  }
}

/**
 * Writes the error envelope as a raw HTTP/1.1 response and closes the connection, as Node's own
 * handler does with its bare text: only when no response has started on the socket (writing
 * then would corrupt what the client reads), and never reusing the connection, whose parser has
 * failed or whose client is too slow.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, logger: Logger): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const correlationId = randomUUID();
  const failure = new AppError(clientErrorCode(error));
  logger.info({ correlationId, code: failure.code, parserError: error.code }, "refused a request the HTTP layer could not take");
  const body = JSON.stringify(errorEnvelope(failure, correlationId));
  const head = [
    `HTTP/1.1 ${failure.httpStatus} ${http.STATUS_CODES[failure.httpStatus]}`,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Correlation-Id: ${correlationId}`,
    "Cache-Control: no-store",
    "Connection: close",
  ].join("\r\n");
  socket.end(`${head}\r\n\r\n${body}`, () => socket.destroy());
}
