import type { MessagePort } from "node:worker_threads";
import type { ServiceConfigs, ServiceName } from "../services-mode/components.js";

/**
 * What crosses between the platform's main thread and its services thread. Rpcs travel on their
 * own port (kit's port transport); the worker's parentPort carries these control messages.
 */

export interface ServicesWorkerData {
  configs: ServiceConfigs;
  natsUrl?: string;
  eventsNamespace?: string;
  logLevel: string;
  /** The serving end of the rpc channel. */
  rpcPort: MessagePort;
}

/** The worker's first message: its services are listening (or they could not start). */
export type WorkerStarted =
  | { kind: "started"; urls: Record<ServiceName, string> }
  | { kind: "failed"; message: string };

export type ControlRequest =
  | { id: number; kind: "metrics" }
  | { id: number; kind: "run"; moduleUrl: string; exportName: string; args: unknown[] }
  | { id: number; kind: "close" };

export type ControlReply = { id: number; result: unknown } | { id: number; error: string };
