import { isDuplicateKeyError, type CollectionDef, type Store } from "@bayad/store";

type Tenant = { projectId: string; environment: string };

/**
 * SMS codes generated and verified per project, environment and number prefix, in slices of the
 * suspicious-traffic window (one document per slice, counted with atomic increments), so the
 * tally holds across replicas and restarts. A verification counts in the slice its code was
 * generated in, so a slice's ratio is that of its own codes.
 */
interface PrefixTally {
  _id: string;
  projectId: string;
  environment: string;
  numberPrefix: string;
  sliceStart: Date;
  generated?: number;
  verified?: number;
  /** When the slice has left the window: the TTL index removes it. */
  expiresAt: Date;
}

/** A prefix whose SMS codes are refused until `until` (suspicious traffic). */
interface PrefixCooldown {
  _id: string;
  projectId: string;
  environment: string;
  numberPrefix: string;
  since: Date;
  until: Date;
  /** Kept a window past `until`: the tally counts only codes generated after it (see countsSince). */
  expiresAt: Date;
}

const talliesCollection: CollectionDef = {
  name: "otp_prefix_tallies",
  indexes: [
    { name: "otp_prefix_tallies_expiry", keys: { expiresAt: 1 }, expireAfterSeconds: 0 },
    { name: "otp_prefix_tallies_prefix", keys: { projectId: 1, environment: 1, numberPrefix: 1, sliceStart: 1 } },
  ],
};

const cooldownsCollection: CollectionDef = {
  name: "otp_prefix_cooldowns",
  indexes: [{ name: "otp_prefix_cooldowns_expiry", keys: { expiresAt: 1 }, expireAfterSeconds: 0 }],
};

/** How many slices the window is counted in. */
const SLICES = 12;

export interface PrefixCounts {
  generated: number;
  verified: number;
}

export interface PrefixTallies {
  count(tenant: Tenant, numberPrefix: string, generatedAt: Date, what: "generated" | "verified"): Promise<void>;
  /** The counts of the slices that began at or after `since`. */
  countsSince(tenant: Tenant, numberPrefix: string, since: Date): Promise<PrefixCounts>;
  cooldownOf(tenant: Tenant, numberPrefix: string): Promise<{ since: Date; until: Date } | null>;
  startCooldown(tenant: Tenant, numberPrefix: string, since: Date, until: Date): Promise<void>;
}

export function createPrefixTallies(store: Store, windowMs: number): PrefixTallies {
  const tallies = store.collection<PrefixTally>(talliesCollection);
  const cooldowns = store.collection<PrefixCooldown>(cooldownsCollection);
  const sliceMs = Math.ceil(windowMs / SLICES);
  const tenantPrefixId = (tenant: Tenant, numberPrefix: string) => `${tenant.projectId}:${tenant.environment}:${numberPrefix}`;

  return {
    async count(tenant, numberPrefix, generatedAt, what) {
      const sliceStart = Math.floor(generatedAt.getTime() / sliceMs) * sliceMs;
      const id = `${tenantPrefixId(tenant, numberPrefix)}:${sliceStart}`;
      const update = {
        $inc: { [what]: 1 },
        $setOnInsert: {
          projectId: tenant.projectId,
          environment: tenant.environment,
          numberPrefix,
          sliceStart: new Date(sliceStart),
          expiresAt: new Date(sliceStart + sliceMs + windowMs),
        },
      };
      try {
        await tallies.updateOne({ _id: id }, update, { upsert: true, durability: "deferred" });
      } catch (error) {
        // Two first counts of a slice raced to insert it: the loser's increment finds it now.
        if (!isDuplicateKeyError(error)) throw error;
        await tallies.updateOne({ _id: id }, update, { upsert: true, durability: "deferred" });
      }
    },

    async countsSince(tenant, numberPrefix, since) {
      const slices = await tallies.find({
        projectId: tenant.projectId,
        environment: tenant.environment,
        numberPrefix,
        sliceStart: { $gte: since },
      });
      return slices.reduce(
        (sum, slice) => ({ generated: sum.generated + (slice.generated ?? 0), verified: sum.verified + (slice.verified ?? 0) }),
        { generated: 0, verified: 0 },
      );
    },

    async cooldownOf(tenant, numberPrefix) {
      const cooldown = await cooldowns.findOne({ _id: tenantPrefixId(tenant, numberPrefix) });
      return cooldown && { since: cooldown.since, until: cooldown.until };
    },

    async startCooldown(tenant, numberPrefix, since, until) {
      await cooldowns.updateOne(
        { _id: tenantPrefixId(tenant, numberPrefix) },
        {
          $set: {
            projectId: tenant.projectId,
            environment: tenant.environment,
            numberPrefix,
            since,
            until,
            expiresAt: new Date(until.getTime() + windowMs),
          },
        },
        { upsert: true },
      );
    },
  };
}
