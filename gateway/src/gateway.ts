import type { AddressInfo } from "node:net";
import type Router from "@koa/router";
import type { Context } from "koa";
import { AppError, createRateLimiter, createRateLimitLeases, keyedDigest, serveMetrics, traceStore, type Logger, type MetricsServer, type Registry } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { createIdempotencyRecords, createIdempotentExecution, createReconciler } from "@bayad/idempotency";
import { createGatewayApp } from "./app.js";
import { createHttpServer } from "./http-server.js";
import { errorEnvelope } from "./envelope.js";
import type { GatewayConfig } from "./config.js";
import { listOperations, loadOpenApiDocument } from "./openapi/document.js";
import { compileRequestValidators } from "./openapi/request-validator.js";
import { createApiKeys } from "./auth/api-keys.js";
import { createDevTokenIssuer } from "./auth/service-tokens.js";
import { createCredentialVerifier } from "./auth/credential-verifier.js";
import { createAdminKeyCheck } from "./auth/admin-key.js";
import { createProjects } from "./admin/projects.js";
import { createSecretsReseal } from "./admin/secrets-reseal.js";
import { createOperationRunner } from "./routes/operation.js";
import { paymentsRoutes } from "./routes/payments.js";
import { routedResources } from "./routes/routed-resources.js";
import { billingRoutes } from "./routes/billing.js";
import { linksRoutes } from "./routes/links.js";
import { recordsRoutes } from "./routes/records.js";
import { recordsExportRoutes } from "./routes/records-export.js";
import { reportsRoutes } from "./routes/reports.js";
import { otpRoutes } from "./routes/otp.js";
import { webhooksRoutes } from "./routes/webhooks.js";
import { adminRoutes } from "./routes/admin.js";
import { messagesRoutes } from "./routes/messages.js";
import { healthRoutes } from "./routes/health.js";
import { createServiceClients, type ServiceAddresses } from "./rpc/service-clients.js";
import { docsRoutes } from "./openapi/docs-page.js";
import { hostedCheckoutRoutes } from "./sandbox/hosted-checkout.js";
import { hostedQrPhRoutes } from "./sandbox/hosted-qrph.js";
import { hostedPaymentIntentRoutes } from "./sandbox/hosted-payment-intent.js";
import { providerWebhookRoutes } from "./provider-webhooks/provider-webhook-routes.js";
import { hostedInvoiceRoutes } from "./sandbox/hosted-invoice.js";
import { hostedPaymentLinkRoutes } from "./sandbox/hosted-payment-link.js";
import { publicUrlResolver, webhookEventTypes } from "@bayad/public-resources";
import { createDashboardSessions } from "./dashboard/dashboard-sessions.js";
import { dashboardSessionAuthenticator, dashboardSessionHandlers, dashboardSessionRoutes } from "./dashboard/session-routes.js";
import { sessionCookieKind } from "./dashboard/session-cookie.js";
import { createSignInLimits } from "./dashboard/sign-in-limits.js";
import { requestClientAddress } from "./http/client-address.js";
import { dashboardFileRoutes } from "./dashboard/dashboard-files.js";

export interface GatewayOptions {
  config: GatewayConfig;
  /** The gateway's own store: projects, API keys, signing keys, idempotency records. */
  store: Store;
  services: ServiceAddresses;
  logger: Logger;
  /**
   * The process's Prometheus registry, with the gateway's request metrics: served at /metrics on
   * the internal metrics listener (config.metrics), never on the public port.
   */
  metrics?: Registry;
  /**
   * Metrics kept outside `metrics`, in Prometheus text, served after it at /metrics: the
   * services' registry when they run on another thread of this process.
   */
  moreMetrics?: () => Promise<string>;
  /** Fault injection for tests: runs after a mutation's outcome is known, before it is recorded. */
  afterOutcome?: (operationId: string) => void | Promise<void>;
  /** The development token issuer's clock; tests move it to see signing keys rotate and retire. */
  tokenIssuerClock?: () => Date;
}

export interface RunningGateway {
  url: string;
  port: number;
  /** The operator dashboard (sign in with the admin key). */
  dashboardUrl: string;
  /** The internal metrics listener's /metrics, when the gateway was given a registry. */
  metricsUrl?: string;
  /** Operator access, for the launcher's first project and key. */
  admin: { projects: ReturnType<typeof createProjects>; apiKeys: ReturnType<typeof createApiKeys> };
  close(): Promise<void>;
}

/** Builds the gateway from its store and the services' addresses, and starts listening. */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const { config, logger } = options;
  // A span per store call when traces are on; the store itself otherwise.
  const store = traceStore(options.store, "gateway");
  const doc = loadOpenApiDocument();
  const operations = listOperations(doc);
  // The document never changes while running: serialise it once, not per request.
  const documentJson = JSON.stringify(doc);

  const projects = createProjects(store, { cursorSecret: config.secret });
  const apiKeys = createApiKeys(store, { logger });
  const dashboardSessions = createDashboardSessions(store, {
    secret: config.secret,
    adminKey: config.adminApiKey,
    ttlMs: config.dashboardSessionTtlMs,
    idleMs: config.dashboardSessionIdleMs,
  });
  const checkAdminKey = createAdminKeyCheck(config.adminApiKey);
  const records = createIdempotencyRecords(store, {
    secret: config.secrets,
    secretResponses: new Set(operations.filter((spec) => spec.secretResponse).map((spec) => spec.operationId)),
  });
  // In the gateway's store, so every replica sharing it counts against the same limits. Counts
  // do not wait for the disk: an operating-system crash may forget the last of them (a client then
  // gets a little more than its limit in that window), and every read waits for a lease's count.
  const rateLimiter = createRateLimiter(store, {
    digest: (key) => keyedDigest(config.secret, "rate-limit", key),
    now: () => new Date(),
    durability: "deferred",
  });
  const devIssuer = config.tokens.devIssuer
    ? await createDevTokenIssuer(store, {
        issuer: config.tokens.issuer,
        audience: config.tokens.audience,
        secret: config.secrets,
        rotationMs: config.tokens.devKeyRotationMs,
        logger,
        now: options.tokenIssuerClock,
      })
    : undefined;
  await store.ensureIndexes();

  const clients = createServiceClients(options.services);
  // Known once listening when PUBLIC_URL is unset; only read while serving requests.
  let publicBaseUrl = config.publicUrl ?? "";
  const publicUrl = publicUrlResolver(() => publicBaseUrl);
  const cookieKind = (ctx: Context) => sessionCookieKind(ctx, publicBaseUrl);
  const requireProject = async (projectId: string) => {
    const project = await projects.get(projectId);
    if (!project) throw new AppError("RESOURCE_NOT_FOUND", `No project with id ${projectId}.`);
    return project;
  };
  const handlers = {
    ...healthRoutes(store, clients),
    ...adminRoutes({
      projects,
      apiKeys,
      devIssuer,
      providerAccounts: clients.providerAccounts,
      providerRouting: clients.providerRouting,
      resealSecrets: createSecretsReseal({
        store,
        keys: config.secrets,
        records,
        providerAccounts: clients.providerAccounts,
        ...(clients.webhooks ? { webhooks: clients.webhooks } : {}),
        ...(clients.otp ? { otp: clients.otp } : {}),
        ...(clients.billing ? { billing: clients.billing } : {}),
      }),
    }),
    ...dashboardSessionHandlers(dashboardSessions),
    ...paymentsRoutes(clients.payments, publicUrl, routedResources(clients), clients.webhooks ? webhookEventTypes : undefined),
    // A service not deployed leaves its operations without handlers: 501 NOT_IMPLEMENTED.
    ...messagesRoutes({
      requireProject,
      ...(clients.billing ? { billing: clients.billing } : {}),
      ...(clients.otp ? { otp: clients.otp } : {}),
    }),
    ...(clients.billing ? billingRoutes(clients.billing, clients.payments, publicUrl, projects) : {}),
    ...(clients.links ? linksRoutes(clients.links, publicUrl) : {}),
    ...(clients.records ? recordsRoutes(clients.records) : {}),
    ...(clients.records ? reportsRoutes({ records: clients.records, requireProject }) : {}),
    ...(clients.otp ? otpRoutes(clients.otp) : {}),
    ...(clients.webhooks ? webhooksRoutes(clients.webhooks) : {}),
  };
  const run = createOperationRunner(handlers, config.rpcTimeoutMs);
  const reconciler = createReconciler({
    records,
    run,
    leaseMs: config.idempotency.leaseMs,
    intervalMs: config.idempotency.reconcileIntervalMs,
    retryBaseMs: config.idempotency.retryBaseMs,
    errorBody: errorEnvelope,
    logger,
  });
  const idempotent = createIdempotentExecution({
    records,
    reconciler,
    run,
    errorBody: errorEnvelope,
    secret: config.secret,
    leaseMs: config.idempotency.leaseMs,
    windowMs: config.idempotency.windowMs,
    afterOutcome: options.afterOutcome,
  });

  const app = createGatewayApp({
    operations,
    validators: compileRequestValidators(doc, operations),
    handlers,
    run,
    streamed: {
      handlers: clients.records ? recordsExportRoutes(clients.records) : {},
      timeoutMs: config.recordsExportTimeoutMs,
    },
    idempotent,
    authenticators: {
      verifyCredential: createCredentialVerifier({
        apiKeys,
        devIssuer: devIssuer
          ? {
              issuer: config.tokens.issuer,
              audience: config.tokens.audience,
              jwks: () => devIssuer.jwks(),
              refresh: () => devIssuer.refresh(),
            }
          : undefined,
        external: config.tokens.external,
      }).verify,
      checkAdminKey,
      dashboardSession: dashboardSessionAuthenticator(dashboardSessions, cookieKind),
      projectExists: async (projectId) => (await projects.get(projectId)) !== null,
    },
    rateLimits: {
      leases: createRateLimitLeases(rateLimiter),
      settings: config.rateLimits,
    },
    bodyLimitBytes: config.bodyLimitBytes,
    logger,
    metrics: options.metrics,
    extraRoutes: (router: Router) => {
      router.get("/openapi.json", (ctx) => {
        ctx.type = "json";
        ctx.body = documentJson;
      });
      docsRoutes(doc)(router);
      dashboardSessionRoutes({
        sessions: dashboardSessions,
        checkAdminKey,
        cookieKind,
        bodyLimitBytes: config.bodyLimitBytes,
        clientAddress: (ctx) => requestClientAddress(config.trustProxy, ctx.req),
        signInLimits: createSignInLimits({
          limiter: rateLimiter,
          globalFailures: config.dashboardSignInGlobalFailures,
          logger,
          metrics: options.metrics,
        }),
      })(router);
      dashboardFileRoutes()(router);
      hostedCheckoutRoutes(clients.payments)(router);
      hostedQrPhRoutes(clients.payments)(router);
      hostedPaymentIntentRoutes(clients.payments)(router);
      providerWebhookRoutes(clients.payments)(router);
      if (clients.billing) hostedInvoiceRoutes(clients.billing)(router);
      if (clients.links) hostedPaymentLinkRoutes(clients.links)(router);
      if (devIssuer) {
        router.get("/.well-known/jwks.json", (ctx) => {
          ctx.body = devIssuer.jwks();
        });
      }
    },
  });

  // Koa answers a failing request itself, so its handler's promise never rejects.
  const handle = app.callback();
  const server = createHttpServer((request, response) => void handle(request, response), config.http, logger);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  let metricsServer: MetricsServer | undefined;
  if (options.metrics) {
    const registry = options.metrics;
    const more = options.moreMetrics;
    metricsServer = await serveMetrics(
      {
        contentType: registry.contentType,
        metrics: async () => (more ? `${await registry.metrics()}\n${await more()}` : registry.metrics()),
      },
      config.metrics,
    ).catch((error: unknown) => {
      server.close();
      throw error;
    });
  }
  reconciler.start();
  const port = (server.address() as AddressInfo).port;
  publicBaseUrl ||= `http://${config.host}:${port}`;
  logger.info({ port, metrics: metricsServer?.url }, "gateway listening");

  return {
    url: `http://${config.host}:${port}`,
    port,
    dashboardUrl: `http://${config.host}:${port}/dashboard/`,
    metricsUrl: metricsServer?.url,
    admin: { projects, apiKeys },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await metricsServer?.close();
      await reconciler.stop();
      devIssuer?.close();
    },
  };
}
