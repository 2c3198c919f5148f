import { RecordsService } from "@bayad/proto";
import { startServiceServer, type Logger, type Registry, type RunningServer } from "@bayad/kit";
import { registerConsumerMetrics, type EventBus } from "@bayad/events";
import type { Store } from "@bayad/store";
import type { RecordsConfig } from "./config.js";
import { RECORDS_DURABLE_NAME, startRecordsConsumer } from "./consumer.js";
import { createRecordsService } from "./records-service.js";

export interface RecordsServerOptions {
  store: Store;
  /** The process's Prometheus registry: rpc metrics, consumer lag. */
  metrics?: Registry;
  bus: EventBus;
  config: RecordsConfig;
  logger: Logger;
  host?: string;
  port?: number;
}

/**
 * Serves RecordsService over gRPC with health and feeds its projection from the bus. The
 * consumer starts only once the indexes exist, so a backlog is never projected into a collection
 * that listings would have to scan; close stops consuming once in-flight calls have drained, and
 * resolves only when the consumer's last write is done.
 */
export async function startRecordsServer(options: RecordsServerOptions): Promise<RunningServer> {
  const { store, bus, config, logger } = options;
  const service = createRecordsService({ store, cursorSecret: config.cursorSecret });
  await store.ensureIndexes();
  const consumption = await startRecordsConsumer({ bus, store, logger, batchSize: config.batchSize });
  if (options.metrics) registerConsumerMetrics(options.metrics, bus, RECORDS_DURABLE_NAME);

  try {
    return await startServiceServer({
      serviceName: RecordsService.typeName,
      routes: (router) => router.service(RecordsService, service),
      // Readiness is about answering listings, which needs the store only; a bus outage makes
      // the feed lag (the durable consumer catches up) but does not stop it being read.
      isReady: () => store.ping().then(() => true),
      logger,
      host: options.host,
      port: options.port,
      metrics: options.metrics,
      workers: [consumption],
    });
  } catch (error) {
    await consumption.stop();
    throw error;
  }
}
