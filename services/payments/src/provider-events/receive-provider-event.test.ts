import { createHmac } from "node:crypto";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppError, createLogger, Registry } from "@bayad/kit";
import type { Store } from "@bayad/store";
import type { AccountProviders } from "../providers/account-providers.js";
import type { ProviderAccountRecord } from "../provider-accounts/provider-account.js";
import { sealProviderWebhookSecret } from "@bayad/provider";
import { createProviderEventsRepository } from "./provider-events-repository.js";
import { registerProviderWebhookMetrics } from "./provider-webhook-metrics.js";
import { receiveProviderEvent, type ReceiveDeps } from "./receive-provider-event.js";
import { createTestStore } from "@bayad/store/testing";

const SECRETS_KEY = "receive-provider-event-test-secrets-key-0123456789";
const WEBHOOK_SECRET = "whsk_receiveProviderEventTestSecret01";
const LIVE_ACCOUNT = "pa_LiveAccount0123456789abcd";

const liveAccount = {
  _id: LIVE_ACCOUNT,
  projectId: "prj_receive",
  environment: "live",
  provider: "paymongo",
  webhook: { webhookId: "hook_1", secret: sealProviderWebhookSecret(SECRETS_KEY, LIVE_ACCOUNT, WEBHOOK_SECRET), status: "enabled", url: "https://pay.example.ph/x" },
} as unknown as ProviderAccountRecord;

const accounts = {
  paymongoOf: async (id: string) => (id === LIVE_ACCOUNT ? { account: liveAccount } : undefined),
} as unknown as AccountProviders;

const sign = (secret: string, t: number, body: string) => createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
const eventBody = (livemode: boolean) =>
  JSON.stringify({
    data: {
      id: `evt_${livemode ? "live" : "test"}1`,
      type: "event",
      attributes: { type: "payment.paid", livemode, data: { id: "pay_1", type: "payment", attributes: { status: "paid" } }, created_at: 1_800_000_000 },
    },
  });

describe("receiveProviderEvent refusals", () => {
  let store: Store;
  let registry: Registry;
  let lines: string[];
  let deps: ReceiveDeps;

  beforeEach(() => {
    store = createTestStore();
    registry = new Registry();
    lines = [];
    deps = {
      accounts,
      events: createProviderEventsRepository(store),
      secretsKey: SECRETS_KEY,
      logger: createLogger("test", "debug", new Writable({ write: (chunk: Buffer, _encoding, done) => void (lines.push(chunk.toString("utf8")), done()) })),
      metrics: registerProviderWebhookMetrics(registry),
      now: () => new Date(),
      received: () => undefined,
    };
  });
  afterEach(async () => {
    await store.close();
  });

  const receive = (providerAccountId: string, signature: string, body: string) =>
    receiveProviderEvent(deps, { provider: "paymongo", providerAccountId, rawBody: new TextEncoder().encode(body), signature }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );

  it("answers every reason with the same 401 and no details, and logs and counts the reason without the secret or the signature", async () => {
    const now = Math.floor(Date.now() / 1000);
    const live = eventBody(true);
    const good = sign(WEBHOOK_SECRET, now, live);
    const cases: Array<[reason: string, account: string, signature: string, body: string]> = [
      ["unknown_account", "pa_NoSuchAccount0123456789ab", `t=${now},te=,li=${good}`, live],
      ["unknown_account", "not-an-account-id", `t=${now},te=,li=${good}`, live],
      ["missing_header", LIVE_ACCOUNT, "", live],
      ["malformed_header", LIVE_ACCOUNT, "t=soon,li=zz", live],
      ["wrong_mode", LIVE_ACCOUNT, `t=${now},te=${good},li=`, live],
      ["timestamp_too_old", LIVE_ACCOUNT, `t=${now - 3600},te=,li=${sign(WEBHOOK_SECRET, now - 3600, live)}`, live],
      ["mismatch", LIVE_ACCOUNT, `t=${now},te=,li=${sign("whsk_not_the_secret", now, live)}`, live],
      // Signed with the account's secret, but a test-mode event reaching a live account.
      ["event_mode_mismatch", LIVE_ACCOUNT, `t=${now},te=,li=${sign(WEBHOOK_SECRET, now, eventBody(false))}`, eventBody(false)],
    ];
    for (const [reason, account, signature, body] of cases) {
      const refused = await receive(account, signature, body);
      expect(refused, reason).toBeInstanceOf(AppError);
      const { code, message, details } = refused as AppError;
      expect({ code, message, details }, reason).toEqual({ code: "INVALID_CREDENTIALS", message: "The signature could not be verified.", details: undefined });
      expect(lines.at(-1), reason).toContain(`"reason":"${reason}"`);
    }

    const counted = await registry.getSingleMetric("bayad_provider_webhook_refusals_total")!.get();
    const count = (reason: string) => counted.values.find((value) => value.labels.reason === reason)?.value;
    expect(count("unknown_account")).toBe(2);
    for (const reason of ["missing_header", "malformed_header", "wrong_mode", "timestamp_too_old", "mismatch", "event_mode_mismatch"]) expect(count(reason), reason).toBe(1);
    expect(count("timestamp_in_future")).toBe(0);

    const logged = lines.join("\n");
    expect(logged).not.toContain(WEBHOOK_SECRET);
    expect(logged).not.toContain(good);
    expect(await deps.events.collection.count({})).toBe(0);
  });

  it("stores a delivery signed for the account's mode", async () => {
    const now = Math.floor(Date.now() / 1000);
    const live = eventBody(true);
    expect(
      await receiveProviderEvent(deps, { provider: "paymongo", providerAccountId: LIVE_ACCOUNT, rawBody: new TextEncoder().encode(live), signature: `t=${now},te=,li=${sign(WEBHOOK_SECRET, now, live)}` }),
    ).toEqual({ eventId: "evt_live1", duplicate: false });
    const counted = await registry.getSingleMetric("bayad_provider_webhook_refusals_total")!.get();
    expect(counted.values.every((value) => value.value === 0)).toBe(true);
  });
});
