import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import { startXenditSimulator, type XenditSimulator } from "@bayad/xendit-simulator";
import { startTestPlatform, type TestPlatform } from "./harness.js";

/** A project's live Xendit account: its id, and what its owner holds. */
export interface XenditLiveAccount {
  providerAccountId: string;
  secretKey: string;
  callbackToken: string;
  callbackUrl: string;
}

/**
 * Puts a live Xendit account for the project through the admin API, and sets its callback URL and
 * token at the simulator (for invoice callbacks too), as the merchant would in Xendit's dashboard.
 */
export async function putXenditLiveAccount(api: TestPlatform, projectId: string, xendit: XenditSimulator): Promise<XenditLiveAccount> {
  const secretKey = `xnd_production_${randomBytes(20).toString("hex")}`;
  const callbackToken = randomBytes(24).toString("base64url");
  const put = await api.admin("PUT", `/admin/v1/projects/${projectId}/provider-accounts/live`, { provider: "xendit", secretKey, callbackToken });
  expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
  const callbackUrl = put.body.data.callback.url as string;
  xendit.setCallbacks({ urls: [callbackUrl], verificationToken: callbackToken }, secretKey);
  return { providerAccountId: put.body.data.providerAccountId as string, secretKey, callbackToken, callbackUrl };
}

/** What a Xendit-only suite's tests use: started before them, closed after them. */
export interface XenditLiveSuite {
  xendit: XenditSimulator;
  api: TestPlatform;
  project: { projectId: string; liveKey: string; testKey: string };
  account: XenditLiveAccount;
  /** A request with the project's live API key. */
  live(method: string, path: string, body?: unknown): ReturnType<TestPlatform["request"]>;
}

/**
 * A live-mode suite against the Xendit simulator: a platform pointed at it (no PayMongo at all),
 * the provider reconcilers running every second, and a project holding only a live Xendit account.
 */
export function xenditLiveSuite(options: { project: string }): XenditLiveSuite {
  const suite = {
    live: (method: string, path: string, body?: unknown) => suite.api.request(method, path, { body, credential: suite.project.liveKey }),
  } as XenditLiveSuite;
  beforeAll(async () => {
    suite.xendit = await startXenditSimulator({ callbackRetryDelaysMs: [50, 50] });
    suite.api = await startTestPlatform({
      XENDIT_API_BASE: suite.xendit.url,
      SECRETS_KEY: randomBytes(32).toString("hex"),
      PROVIDER_RECONCILE_AFTER: "1s",
      PROVIDER_RECONCILE_INTERVAL: "1s",
    });
    suite.project = await suite.api.newProject(options.project);
    suite.account = await putXenditLiveAccount(suite.api, suite.project.projectId, suite.xendit);
  }, 60_000);
  afterAll(async () => {
    await suite.api?.close();
    await suite.xendit?.close();
  });
  return suite;
}
