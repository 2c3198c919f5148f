import { OtpService } from "@bayad/proto";
import { startServiceServer, type Logger, type Registry, type RunningServer } from "@bayad/kit";
import type { Store } from "@bayad/store";
import type { OtpConfig } from "./config.js";
import { createOtpService } from "./otp-service.js";
import { createOtpDeps } from "./otps/otp-deps.js";
import { createChannelSenders } from "@bayad/messaging";

export interface OtpServerOptions {
  store: Store;
  /** The process's Prometheus registry: rpc metrics, codes generated and verified, the refusals. */
  metrics?: Registry;
  config: OtpConfig;
  logger: Logger;
  host?: string;
  port?: number;
  /** The clock; tests move it to expire codes and roll rate-limit windows. */
  now?: () => Date;
}

/**
 * Wires the OTP service to its store and senders and serves it over gRPC with health. No
 * sweeper runs: an expired code's status is computed, and TTL indexes clear old records,
 * rate-limit counters and development messages.
 */
export async function startOtpServer(options: OtpServerOptions): Promise<RunningServer> {
  const { store, config, logger } = options;
  const now = options.now ?? (() => new Date());
  if (config.hashSecretGenerated) {
    logger.warn("OTP_HASH_SECRET is not set: a random secret is used, so codes do not survive a restart or verify on another replica");
  }
  if (config.email.kind === "smtp" && config.email.smtp.verifyCertificate === false) {
    logger.warn("SMTP_TLS_VERIFY is false: the SMTP server's certificate is not checked, so anyone on the path can read the codes (self-signed development servers only)");
  }
  const senders = createChannelSenders({ email: config.email, sms: config.sms, sealingKeys: config.hashSecrets }, store, now);
  const service = createOtpService(createOtpDeps({ store, config, senders, logger, now, metrics: options.metrics }));
  await store.ensureIndexes();

  return startServiceServer({
    serviceName: OtpService.typeName,
    routes: (router) => router.service(OtpService, service),
    isReady: () => store.ping().then(() => true),
    logger,
    host: options.host,
    port: options.port,
    metrics: options.metrics,
    workers: [{ stop: () => senders.close() }],
  });
}
