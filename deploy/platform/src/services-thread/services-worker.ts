import { MessageChannel, Worker } from "node:worker_threads";
import type { Transport } from "@connectrpc/connect";
import { ConfigError, createPortTransport, type Logger } from "@bayad/kit";
import type { ServiceName } from "../services-mode/components.js";
import type { ControlReply, ControlRequest, ServicesWorkerData, WorkerStarted } from "./protocol.js";

/** The worker's entry, built: from src/ or dist/ alike, two levels up is the package. */
const workerEntry = new URL("../../dist/services-thread/worker-main.js", import.meta.url);

export interface ServicesWorkerOptions extends Omit<ServicesWorkerData, "rpcPort"> {
  /** Where the main thread logs the worker's failures. */
  logger: Logger;
}

/** The services thread, as the main thread holds it. */
export interface ServicesWorker {
  /** Calls any of the services on the worker (kit's port transport). */
  transport: Transport;
  /** Each service's loopback gRPC address, served from the worker. */
  urls: Record<ServiceName, string>;
  /** The services' metrics in Prometheus text (the worker's registry). */
  metrics(): Promise<string>;
  /** Runs `exportName` of `moduleUrl` on the worker with its LocalServices and `args`; resolves with its (cloned) result. */
  run<T>(moduleUrl: string, exportName: string, args: unknown[]): Promise<T>;
  /** Stops the services gracefully (outboxes flushed), then the worker. */
  close(): Promise<void>;
}

/** Starts the services on a worker thread; resolves once they listen, rejects with why they could not start. */
export async function startServicesWorker(options: ServicesWorkerOptions): Promise<ServicesWorker> {
  const channel = new MessageChannel();
  const { logger, ...settings } = options;
  const workerData: ServicesWorkerData = { ...settings, rpcPort: channel.port2 };
  const worker = new Worker(workerEntry, { workerData, transferList: [channel.port2] });
  const started = await new Promise<WorkerStarted>((resolve, reject) => {
    const exited = (code: number) => reject(new Error(`the services thread exited (code ${code}) before it started`));
    worker.once("message", (message: WorkerStarted) => {
      worker.off("error", reject);
      worker.off("exit", exited);
      resolve(message);
    });
    worker.once("error", reject);
    worker.once("exit", exited);
  });
  if (started.kind === "failed") {
    await worker.terminate();
    channel.port1.close();
    // A bad setting (DATA_DIR, …) stays the one line that names it.
    if (started.variable) throw new ConfigError(started.variable, started.message.slice(started.variable.length + 1));
    throw new Error(`the services could not start: ${started.message}`);
  }

  const transport = createPortTransport(channel.port1);
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 0;
  let exited = false;
  worker.on("message", (reply: ControlReply) => {
    const request = pending.get(reply.id);
    pending.delete(reply.id);
    if ("error" in reply) request?.reject(new Error(reply.error));
    else request?.resolve(reply.result);
  });
  worker.on("error", (error) => logger.error({ err: error }, "the services thread failed"));
  worker.on("exit", (code) => {
    exited = true;
    transport.close();
    for (const request of pending.values()) request.reject(new Error(`the services thread exited (code ${code})`));
    pending.clear();
  });

  const control = (request: WithoutId<ControlRequest>): Promise<unknown> => {
    if (exited) return Promise.reject(new Error("the services thread is not running"));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  };

  return {
    transport,
    urls: started.urls,
    metrics: () => control({ kind: "metrics" }) as Promise<string>,
    run: <T>(moduleUrl: string, exportName: string, args: unknown[]) => control({ kind: "run", moduleUrl, exportName, args }) as Promise<T>,
    async close() {
      if (exited) return;
      await control({ kind: "close" });
      transport.close();
      await worker.terminate();
    },
  };
}

type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;
