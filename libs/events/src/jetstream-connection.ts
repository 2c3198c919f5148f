import { connect, Events, type JetStreamManager, type NatsConnection } from "nats";
import { backoffDelay, pause, type Logger } from "@bayad/kit";
import { ensureStream, type JetStreamNames } from "./jetstream-definitions.js";

export interface JetStreamConnectionOptions {
  url: string;
  names: JetStreamNames;
  logger: Logger;
  duplicateWindowMs: number;
  /** Timeout of JetStream API requests (stream and consumer management). */
  apiTimeoutMs: number;
  reconnectTimeWaitMs: number;
}

/**
 * One NATS connection shared by the bus's publishes and consumers, and the knowledge of whether
 * the stream is known to exist on the server it is connected to.
 */
export interface JetStreamConnection {
  isConnected(): boolean;
  /** The connection once it is up, or null when `timeoutMs` passes, `signal` aborts or it closes. */
  whenConnected(timeoutMs: number, signal?: AbortSignal): Promise<NatsConnection | null>;
  manager(): Promise<JetStreamManager>;
  /** Makes sure the stream exists with the declared settings (checked once per (re)connection). */
  ensureStream(): Promise<void>;
  /** Forgets that the stream exists (it was found missing), so the next ensureStream checks again. */
  forgetStream(): void;
  close(): Promise<void>;
}

function describeServer(url: string): string {
  // Only host and port: a URL may carry credentials, which never go to the logs.
  try {
    return new URL(url).host;
  } catch {
    return "(unparsable NATS url)";
  }
}

/**
 * Returns at once; the connection is made in the background and retried forever, so a NATS that
 * is down when a service starts delays its events but does not stop it. Once connected, the
 * client itself reconnects forever (maxReconnectAttempts -1).
 *
 * The first connection is retried here rather than with nats.js's `waitOnFirstConnect`: that
 * option's dial loop cannot be cancelled, so close() could not stop a process whose NATS never
 * came up. The effect is the same: no failure at start, publishes fail until NATS is up.
 */
export function openJetStreamConnection(options: JetStreamConnectionOptions): JetStreamConnection {
  const { names, logger } = options;
  const server = describeServer(options.url);
  const closing = new AbortController();
  const waiters = new Set<() => void>();
  let nc: NatsConnection | null = null;
  let connected = false;
  let jsm: Promise<JetStreamManager> | null = null;
  let streamReady: Promise<void> | null = null;

  function wakeWaiters(): void {
    for (const wake of waiters) wake();
  }

  function ensureStreamNow(): Promise<void> {
    if (!streamReady) {
      const attempt = (async () => {
        await ensureStream(await manager(), names, options.duplicateWindowMs, logger);
      })();
      streamReady = attempt;
      attempt.catch(() => {
        if (streamReady === attempt) streamReady = null;
      });
    }
    return streamReady;
  }

  function manager(): Promise<JetStreamManager> {
    if (!nc) return Promise.reject(new Error("not connected to NATS"));
    if (!jsm) {
      const attempt = nc.jetstreamManager({ timeout: options.apiTimeoutMs });
      jsm = attempt;
      attempt.catch(() => {
        if (jsm === attempt) jsm = null;
      });
    }
    return jsm;
  }

  /** After a reconnect the server may be a fresh one (or lost its storage): check the stream again. */
  function recheckStream(): void {
    streamReady = null;
    ensureStreamNow().catch((err: unknown) => logger.warn({ err, stream: names.stream }, "event stream not ready yet"));
  }

  async function watch(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === Events.Disconnect) {
        if (connected && !closing.signal.aborted) logger.warn({ server }, "NATS connection lost; reconnecting");
        connected = false;
      } else if (status.type === Events.Reconnect) {
        connected = true;
        logger.info({ server }, "NATS connection restored");
        recheckStream();
        wakeWaiters();
      }
    }
  }

  async function dial(): Promise<void> {
    // From a quick second try (a NATS starting alongside) up to nats.js's own reconnect wait.
    const backoff = { initialDelayMs: Math.min(100, options.reconnectTimeWaitMs), maxDelayMs: options.reconnectTimeWaitMs };
    let failures = 0;
    while (!closing.signal.aborted) {
      try {
        const connection = await connect({
          servers: options.url,
          name: "bayad-events",
          maxReconnectAttempts: -1,
          reconnectTimeWait: options.reconnectTimeWaitMs,
        });
        if (closing.signal.aborted) {
          await connection.close();
          return;
        }
        nc = connection;
        connected = true;
        void connection.closed().then(() => {
          connected = false;
          wakeWaiters();
        });
        watch(connection).catch((err: unknown) => logger.warn({ err }, "NATS status watch ended"));
        logger.info({ server, stream: names.stream }, "connected to NATS");
        recheckStream();
        wakeWaiters();
        return;
      } catch (err) {
        if (failures++ === 0) logger.warn({ err, server }, "NATS unreachable; retrying until it is up");
        await pause(backoffDelay(backoff, failures), closing.signal);
      }
    }
  }

  const dialing = dial();

  return {
    isConnected() {
      return connected && nc !== null && !nc.isClosed();
    },

    whenConnected(timeoutMs, signal) {
      return new Promise((resolve) => {
        const settle = () => {
          if (closing.signal.aborted || signal?.aborted) return finish(null);
          if (connected && nc && !nc.isClosed()) return finish(nc);
        };
        const finish = (value: NatsConnection | null) => {
          waiters.delete(settle);
          clearTimeout(timer);
          signal?.removeEventListener("abort", settle);
          resolve(value);
        };
        const timer = Number.isFinite(timeoutMs) ? setTimeout(() => finish(null), timeoutMs) : undefined;
        waiters.add(settle);
        signal?.addEventListener("abort", settle, { once: true });
        settle();
      });
    },

    manager,
    ensureStream: ensureStreamNow,

    forgetStream() {
      streamReady = null;
    },

    async close() {
      closing.abort();
      wakeWaiters();
      await dialing;
      const connection = nc;
      if (!connection || connection.isClosed()) return;
      // Drain delivers what is in flight (acks, publishes) before closing; when NATS is away there
      // is nothing to drain into, so close at once instead of waiting for a reconnect.
      if (connected) await connection.drain().catch(() => connection.close());
      else await connection.close();
    },
  };
}
