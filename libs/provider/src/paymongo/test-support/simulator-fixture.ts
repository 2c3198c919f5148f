import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import type { ProviderCallContext } from "../../port.js";

/** A fresh secret key: each key is an account of its own at the simulator, so tests do not share data. */
export const newTestKey = () => `sk_test_${randomBytes(16).toString("hex")}`;
export const newLiveKey = () => `sk_live_${randomBytes(16).toString("hex")}`;

export const context = (idempotencyKey = `key-${randomBytes(8).toString("hex")}`): ProviderCallContext => ({
  environment: "live",
  idempotencyKey,
});

export const php = (amountMinor: number) => ({ amountMinor, currency: "PHP" as const });

/** An address where nothing listens: a port taken from the OS and released again. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Runs `call` and answers what it threw (failing if it threw nothing). */
export async function thrownBy(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw");
}
