import { randomBytes } from "node:crypto";
import type { ProviderCallContext } from "../../port.js";

/** A fresh test key: each key is an account of its own at the simulator, so tests share no data or rate limit. */
export const newXenditTestKey = () => `xnd_development_${randomBytes(16).toString("hex")}`;

/** Runs `call` and answers what it threw (failing if it threw nothing). */
export async function thrownBy(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw");
}

/** A Bayad-style id with a random tail, so tests on one simulator never share a reference. */
export const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString("hex")}`;

export const php = (amountMinor: number) => ({ amountMinor, currency: "PHP" as const });

/** A call's context with a fresh Idempotency-Key. */
export const context = (): ProviderCallContext => ({ environment: "test", idempotencyKey: newId("key") });
