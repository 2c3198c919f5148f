import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { startXenditSimulator, type XenditSimulator } from "@bayad/xendit-simulator";
import { startTestPlatform, type TestPlatform } from "./harness.js";
import { putXenditLiveAccount } from "./xendit-live.js";

/** What a two-provider suite's tests use: started before them, closed after them. */
export interface TwoProvidersSuite {
  paymongo: PaymongoSimulator;
  xendit: XenditSimulator;
  api: TestPlatform;
  project: { projectId: string; liveKey: string; testKey: string };
  /** The project's live accounts: their ids, and what their owners hold. */
  accounts: {
    paymongo: { providerAccountId: string; secretKey: string };
    xendit: { providerAccountId: string; secretKey: string; callbackToken: string; callbackUrl: string };
  };
  /** A request with the project's live API key. */
  live(method: string, path: string, body?: unknown, idempotencyKey?: string): ReturnType<TestPlatform["request"]>;
  /** Replaces the project's live routing: `[account, weight]` in order, each taking every method and amount. */
  route(...routes: Array<["paymongo" | "xendit", number]>): Promise<void>;
}

/**
 * A live-mode suite against both simulators: a platform pointed at PayMongo's and Xendit's, and a
 * project holding a live account at each (the Xendit one with its callback URL configured at the
 * simulator, as the merchant would in Xendit's dashboard).
 */
export function twoProvidersSuite(options: { project: string; env?: Record<string, string> }): TwoProvidersSuite {
  const suite = {
    live: (method: string, path: string, body?: unknown, idempotencyKey?: string) =>
      suite.api.request(method, path, { body, credential: suite.project.liveKey, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) }),
    async route(...routes: Array<["paymongo" | "xendit", number]>) {
      const path = `/admin/v1/projects/${suite.project.projectId}/provider-routing/live`;
      const { version } = (await suite.api.admin("GET", path)).body.data as { version: number };
      const put = await suite.api.admin("PUT", path, {
        routes: routes.map(([provider, weight]) => ({ providerAccountId: suite.accounts[provider].providerAccountId, weight })),
        version,
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
    },
  } as TwoProvidersSuite;
  beforeAll(async () => {
    // Rate limits far above what the suite sends: the weights test makes a thousand checkouts.
    suite.paymongo = await startPaymongoSimulator({ retrySchedule: [50, 50, 50], rateLimitPerSecond: 100_000 });
    suite.xendit = await startXenditSimulator({ callbackRetryDelaysMs: [50, 50], rateLimit: { live: 100_000, test: 100_000 } });
    suite.api = await startTestPlatform({
      PAYMONGO_API_BASE: suite.paymongo.url,
      XENDIT_API_BASE: suite.xendit.url,
      SECRETS_KEY: randomBytes(32).toString("hex"),
      PROVIDER_RECONCILE_AFTER: "1s",
      PROVIDER_RECONCILE_INTERVAL: "1s",
      ...options.env,
    });
    suite.project = await suite.api.newProject(options.project);
    const accountsPath = `/admin/v1/projects/${suite.project.projectId}/provider-accounts/live`;
    const paymongoKey = `sk_live_${randomBytes(16).toString("hex")}`;
    const paymongo = await suite.api.admin("PUT", accountsPath, { provider: "paymongo", secretKey: paymongoKey, paymentMethodTypes: ["gcash", "qrph", "card"] });
    expect(paymongo.status, JSON.stringify(paymongo.body)).toBeLessThan(300);
    suite.accounts = {
      paymongo: { providerAccountId: paymongo.body.data.providerAccountId as string, secretKey: paymongoKey },
      xendit: await putXenditLiveAccount(suite.api, suite.project.projectId, suite.xendit),
    };
  }, 60_000);
  afterAll(async () => {
    await suite.api?.close();
    await suite.paymongo?.close();
    await suite.xendit?.close();
  });
  return suite;
}
