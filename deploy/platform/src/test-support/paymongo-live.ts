import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import { startPaymongoSimulator, type PaymongoSimulator, type PaymongoSimulatorOptions } from "@bayad/paymongo-simulator";
import type { Logger } from "@bayad/kit";
import { startTestPlatform, type TestPlatform } from "./harness.js";

export interface PaymongoLiveSuiteOptions {
  /** The project's name (shown in logs and the admin API). */
  project: string;
  /** The live PayMongo account's method types (PayMongo's Checkout Session names). */
  paymentMethodTypes: string[];
  /** Platform settings beside the suite's (PayMongo's address, SECRETS_KEY, 1 s reconciliation). */
  env?: Record<string, string>;
  simulator?: PaymongoSimulatorOptions;
  logger?: Logger;
}

/** What a live suite's tests use: started before them, closed after them. */
export interface PaymongoLiveSuite {
  sim: PaymongoSimulator;
  api: TestPlatform;
  project: { projectId: string; liveKey: string; testKey: string };
  providerAccountId: string;
  /** The live account's PayMongo key (`sk_live_…`). */
  secretKey: string;
  /** The Authorization header the account's owner reads PayMongo (the simulator) with. */
  ownerAuth: { Authorization: string };
  /** A request with the project's live API key. */
  live(method: string, path: string, body?: unknown): ReturnType<TestPlatform["request"]>;
  /** A request with the project's test API key. */
  test(method: string, path: string, body?: unknown): ReturnType<TestPlatform["request"]>;
}

/**
 * A live-mode suite against the PayMongo simulator: the simulator (webhook retries 50 ms apart), a
 * platform pointed at it that reconciles every second, and a project whose live PayMongo account
 * is connected. Made before the suite's tests and closed after them.
 */
export function paymongoLiveSuite(options: PaymongoLiveSuiteOptions): PaymongoLiveSuite {
  const secretKey = `sk_live_${randomBytes(16).toString("hex")}`;
  const suite = {
    secretKey,
    ownerAuth: { Authorization: `Basic ${Buffer.from(`${secretKey}:`).toString("base64")}` },
    live: (method: string, path: string, body?: unknown) => suite.api.request(method, path, { body, credential: suite.project.liveKey }),
    test: (method: string, path: string, body?: unknown) => suite.api.request(method, path, { body, credential: suite.project.testKey }),
  } as PaymongoLiveSuite;
  beforeAll(async () => {
    suite.sim = await startPaymongoSimulator({ retrySchedule: [50, 50, 50], ...options.simulator });
    suite.api = await startTestPlatform(
      {
        PAYMONGO_API_BASE: suite.sim.url,
        SECRETS_KEY: randomBytes(32).toString("hex"),
        PROVIDER_RECONCILE_AFTER: "1s",
        PROVIDER_RECONCILE_INTERVAL: "1s",
        ...options.env,
      },
      options.logger ? { logger: options.logger } : {},
    );
    suite.project = await suite.api.newProject(options.project);
    const put = await suite.api.admin("PUT", `/admin/v1/projects/${suite.project.projectId}/provider-accounts/live`, {
      provider: "paymongo",
      secretKey,
      paymentMethodTypes: options.paymentMethodTypes,
    });
    expect(put.status).toBeLessThan(300);
    suite.providerAccountId = put.body.data.providerAccountId as string;
  }, 60_000);
  afterAll(async () => {
    await suite.api?.close();
    await suite.sim?.close();
  });
  return suite;
}

/** Settings of suites whose tests lose PayMongo's answers: lost answers are reconciled within a second or two. */
export const LOST_ANSWER_SETTINGS: Readonly<Record<string, string>> = Object.freeze({
  PROVIDER_TIMEOUT_MS: "1000",
  PAYMENTS_RECONCILE_INTERVAL_MS: "200",
  PAYMENTS_PROVIDER_LEASE_MS: "1000",
});
