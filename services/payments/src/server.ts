import { PaymentsService } from "@bayad/proto";
import { startServiceServer, type Logger, type RunningServer } from "@bayad/kit";
import { createOutbox } from "@bayad/events";
import type { Store } from "@bayad/store";
import { createCustomersRepository } from "./customers/customers-repository.js";
import { createPaymentsService } from "./payments-service.js";

export interface PaymentsServerOptions {
  store: Store;
  logger: Logger;
  host?: string;
  port?: number;
}

/** Wires the payments service to its store and serves it over gRPC/Connect with health. */
export async function startPaymentsServer(options: PaymentsServerOptions): Promise<RunningServer> {
  const { store } = options;
  const service = createPaymentsService({
    customers: { store, repository: createCustomersRepository(store), outbox: createOutbox(store, "payments") },
    paymentMethods: [],
  });
  await store.ensureIndexes();
  return startServiceServer({
    serviceName: PaymentsService.typeName,
    routes: (router) => router.service(PaymentsService, service),
    isReady: () => store.ping().then(() => true),
    logger: options.logger,
    host: options.host,
    port: options.port,
  });
}
