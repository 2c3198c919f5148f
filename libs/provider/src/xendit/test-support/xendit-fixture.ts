import { randomBytes } from "node:crypto";

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
