import { parentPort, workerData } from "node:worker_threads";
import { ConfigError, createLogger, Registry, servePortCalls, setupTracing } from "@bayad/kit";
import { Health, ProviderAccountsService } from "@bayad/proto";
import { runWithServices, startLocalServices, type LocalServices } from "../local-services.js";
import { serviceDescriptors, serviceNames, type ServiceName } from "../services-mode/components.js";
import type { ControlReply, ControlRequest, ServicesWorkerData, WorkerStarted } from "./protocol.js";
import { healthByService } from "./health-by-service.js";

/**
 * The services thread of the one-process platform (`npm start`): every service with its store,
 * outbox relay and the event bus, on its own event loop beside the gateway's. The gateway's
 * calls arrive on the rpc port; the main thread's control requests on parentPort.
 */
const port = parentPort!;
const { rpcPort, logLevel, ...settings } = workerData as ServicesWorkerData;
const logger = createLogger("bayad", logLevel);
// A thread has the OpenTelemetry API's globals of its own: this one's spans are set up here.
const tracing = setupTracing("bayad");
// The process metrics (memory, event loop, GC) are the main thread's registry's; this one holds the services' own.
const metrics = new Registry();

async function start(): Promise<LocalServices> {
  const services = await startLocalServices({ ...settings, logger, metrics });
  const served = serviceNames.map((name) => ({ service: serviceDescriptors[name], transport: services.services[name].transport }));
  // The payments service also serves the admin API's provider accounts, on the same server.
  const alsoServed = [{ service: ProviderAccountsService, transport: services.services.payments.transport }];
  const health = healthByService(served.map(({ service, transport }) => ({ typeName: service.typeName, transport })));
  servePortCalls(rpcPort, [...served, ...alsoServed, { service: Health, transport: health }]);
  return services;
}

async function control(services: LocalServices, request: ControlRequest): Promise<unknown> {
  switch (request.kind) {
    case "metrics":
      return metrics.metrics();
    case "run":
      return runWithServices(services, request.moduleUrl, request.exportName, request.args);
    case "close":
      await services.close();
      rpcPort.close();
      await tracing?.shutdown();
      return undefined;
  }
}

start().then(
  (services) => {
    port.on("message", (request: ControlRequest) => {
      control(services, request).then(
        (result) => port.postMessage({ id: request.id, result } satisfies ControlReply),
        (error: unknown) => port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies ControlReply),
      );
    });
    const urls = Object.fromEntries(serviceNames.map((name) => [name, services.services[name].url])) as Record<ServiceName, string>;
    port.postMessage({ kind: "started", urls } satisfies WorkerStarted);
  },
  (error: unknown) => {
    const variable = error instanceof ConfigError ? error.variable : undefined;
    port.postMessage({ kind: "failed", message: error instanceof Error ? error.message : String(error), variable } satisfies WorkerStarted);
  },
);
