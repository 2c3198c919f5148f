import type { MessagePort } from "node:worker_threads";
import type { LocalServicesOptions } from "../local-services.js";
import type { ServiceName } from "../services-mode/components.js";

/**
 * What crosses between the platform's main thread and its services thread. Rpcs travel on their
 * own port (kit's port transport); the worker's parentPort carries these control messages.
 */

/** What the worker starts its services with: the local services' options, bar what cannot cross. */
export interface ServicesWorkerData extends Omit<LocalServicesOptions, "logger" | "metrics"> {
  /** Its logger's level (a logger cannot cross threads). */
  logLevel: string;
  /** The serving end of the rpc channel. */
  rpcPort: MessagePort;
}

/** The worker's first message: its services are listening (or they could not start). */
export type WorkerStarted =
  | { kind: "started"; urls: Record<ServiceName, string> }
  | { kind: "failed"; message: string; /** Set when a setting was at fault (a ConfigError's variable). */ variable?: string };

export type ControlRequest =
  | { id: number; kind: "metrics" }
  | { id: number; kind: "run"; moduleUrl: string; exportName: string; args: unknown[] }
  | { id: number; kind: "close" };

export type ControlReply = { id: number; result: unknown } | { id: number; error: string };
