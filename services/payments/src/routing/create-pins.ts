import { createHash } from "node:crypto";
import type { KeyedCaller } from "@bayad/idempotency";
import type { CollectionDef, Doc, Store } from "@bayad/store";
import type { ProviderAttempt } from "./failover.js";

/**
 * Where a create made at the provider before its resource is written (a payment intent) is being
 * asked, per Idempotency-Key: written before each account is asked, so a retry of a request that
 * got no answer continues at that account and never creates at another.
 */
export interface CreatePinRecord extends Doc {
  /** A digest of project, environment, key and operation. */
  _id: string;
  providerAccountId: string;
  provider: string;
  providerAttempts: ProviderAttempt[];
  /** The key's window: the pin is forgotten with the key. */
  expiresAt: Date;
}

export const createPinsCollection: CollectionDef = {
  name: "provider_create_pins",
  indexes: [{ name: "provider_create_pins_expiry", keys: { expiresAt: 1 }, expireAfterSeconds: 0 }],
};

export function createCreatePins(store: Store, options: { windowMs: number; now?: () => Date }) {
  const pins = store.collection<CreatePinRecord>(createPinsCollection);
  const now = options.now ?? (() => new Date());
  const idOf = (caller: KeyedCaller, operation: string) =>
    createHash("sha256").update(`${caller.projectId}\0${caller.environment}\0${caller.idempotencyKey}\0${operation}`).digest("base64url");
  return {
    /** The account an earlier try of this key was asking, if its pin is still within the window. */
    async find(caller: KeyedCaller, operation: string): Promise<CreatePinRecord | null> {
      const pin = await pins.findOne({ _id: idOf(caller, operation) });
      return pin && pin.expiresAt.getTime() > now().getTime() ? pin : null;
    },
    /** Pins the key to the account about to be asked (flushed before it is asked). */
    async pin(caller: KeyedCaller, operation: string, pin: Omit<CreatePinRecord, "_id" | "expiresAt">): Promise<void> {
      const expiresAt = new Date(now().getTime() + options.windowMs);
      await pins.updateOne({ _id: idOf(caller, operation) }, { $set: { ...pin, expiresAt } }, { upsert: true });
    },
  };
}

export type CreatePins = ReturnType<typeof createCreatePins>;
