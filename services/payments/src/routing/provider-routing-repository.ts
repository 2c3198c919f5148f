import { AppError, type Environment } from "@bayad/kit";
import { isDuplicateKeyError, type CollectionDef, type Store } from "@bayad/store";
import { routingIdOf, type ProviderRoute, type ProviderRoutingRecord } from "./provider-routing.js";

export const providerRoutingCollection: CollectionDef = { name: "provider_routing" };

function modifiedMeanwhile(): AppError {
  return new AppError("CONCURRENT_MODIFICATION", "The provider routing changed since it was read; read it again and retry.", {
    details: ["version: is not the routing's current version"],
  });
}

/** The only code that knows the `provider_routing` collection. */
export function createProviderRoutingRepository(store: Store) {
  const routings = store.collection<ProviderRoutingRecord>(providerRoutingCollection);
  return {
    collection: routings,

    find(projectId: string, environment: Environment): Promise<ProviderRoutingRecord | null> {
      return routings.findOne({ _id: routingIdOf(projectId, environment) });
    },

    /**
     * Stores `routes` if the stored routing is still at `version` (0: none stored yet), else
     * CONCURRENT_MODIFICATION: of two puts from the same read, one wins.
     */
    async put(projectId: string, environment: Environment, version: number, routes: ProviderRoute[], now: Date): Promise<ProviderRoutingRecord> {
      const _id = routingIdOf(projectId, environment);
      if (version === 0) {
        const record: ProviderRoutingRecord = { _id, projectId, environment, routes, version: 1, createdAt: now, updatedAt: now };
        try {
          await routings.insertOne(record);
        } catch (error) {
          if (isDuplicateKeyError(error, "_id_")) throw modifiedMeanwhile();
          throw error;
        }
        return record;
      }
      const updated = await routings.findOneAndUpdate({ _id, version }, { $set: { routes, version: version + 1, updatedAt: now } });
      if (!updated) throw modifiedMeanwhile();
      return updated;
    },
  };
}

export type ProviderRoutingRepository = ReturnType<typeof createProviderRoutingRepository>;
