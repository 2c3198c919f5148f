import { createLogger, type Counter, type Registry } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { readOtpConfig, type OtpLimits, type SuspiciousTrafficSettings } from "../config.js";
import { createOtpDeps, type OtpDeps } from "../otps/otp-deps.js";
import type { OtpRecord } from "../otps/otp.js";
import { createDevOutbox, type DevOutbox, type MessageSender } from "@bayad/messaging";
import { createTestStore } from "@bayad/store/testing";

/** A clock tests move by hand. */
export function createClock(start = new Date("2026-03-01T08:00:00.000Z")) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
  };
}

export type Clock = ReturnType<typeof createClock>;

export interface Harness {
  store: Store;
  deps: OtpDeps;
  outbox: DevOutbox;
  clock: Clock;
  /** Every stored OTP document. */
  otps(): Promise<OtpRecord[]>;
}

export const SECRET = "test-secret-test-secret-test-secret-0001";

/**
 * OTP deps over an embedded store with the development outbox as both channels' sender (unless
 * one is given), the default limits (overridable) and a hand-moved clock.
 */
export async function createHarness(
  options: {
    store?: Store;
    clock?: Clock;
    limits?: Partial<OtpLimits>;
    suspicious?: Partial<SuspiciousTrafficSettings>;
    senders?: Partial<OtpDeps["senders"]>;
    metrics?: Registry;
  } = {},
): Promise<Harness> {
  const store = options.store ?? createTestStore();
  const clock = options.clock ?? createClock();
  const outbox = createDevOutbox(store, { secret: SECRET, now: clock.now });
  const defaults = readOtpConfig({ OTP_HASH_SECRET: SECRET });
  const deps = createOtpDeps({
    store,
    config: { ...defaults, limits: { ...defaults.limits, ...options.limits }, suspicious: { ...defaults.suspicious, ...options.suspicious } },
    senders: { byChannel: { sms: outbox, email: outbox, ...options.senders }, devOutbox: outbox },
    logger: createLogger("otp-test", "silent"),
    now: clock.now,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  await store.ensureIndexes();
  return {
    store,
    deps,
    outbox,
    clock,
    otps: () => store.collection<OtpRecord>({ name: "otps" }).find({}),
  };
}

/** A caller with its own Idempotency-Key. */
export function caller(idempotencyKey: string, projectId = "prj_a") {
  return { projectId, environment: "test" as const, correlationId: "corr", idempotencyKey };
}

let keyCounter = 0;
/** A fresh Idempotency-Key (16+ characters, as the gateway requires). */
export function freshKey(): string {
  keyCounter += 1;
  return `test-key-${String(keyCounter).padStart(10, "0")}`;
}

/** The code the development outbox holds in the newest message for `recipient`. */
export async function codeSentTo(outbox: DevOutbox, recipient: string): Promise<string> {
  const [latest] = await outbox.list({ recipient, kind: "otp" });
  const code = /code is (\d+)\./.exec(latest?.body ?? "")?.[1];
  if (!code) throw new Error(`no code was sent to ${recipient}`);
  return code;
}

/** A sender whose behaviour a test scripts per call; it records what it was asked to send. */
export function scriptedSender(script: Array<"ok" | Error>): MessageSender & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    async send(message) {
      sent.push(message.body);
      const step = script.shift() ?? "ok";
      if (step !== "ok") throw step;
    },
  };
}

/** A counter's values, each as its labels and its value (none when the counter was never made). */
export async function counterValues(registry: Registry, name: string): Promise<Array<Record<string, string | number>>> {
  const metric = registry.getSingleMetric(name) as Counter | undefined;
  const { values } = (await metric?.get()) ?? { values: [] };
  return values.map(({ labels, value }) => ({ ...labels, value }));
}

/** A logger that keeps every line it is given, to prove what is never logged. */
export function recordingLogger(): { logger: OtpDeps["logger"]; lines: string[] } {
  const lines: string[] = [];
  const record = (...args: unknown[]) => {
    lines.push(JSON.stringify(args, (_key, value: unknown) => (value instanceof Error ? { ...value, message: value.message } : value)));
  };
  const logger = { trace: record, debug: record, info: record, warn: record, error: record, fatal: record, child: () => logger };
  return { logger: logger as unknown as OtpDeps["logger"], lines };
}
