import { resealCollection, type CallerContext, type PagePosition, type ResealCounts, type SealingKeys } from "@bayad/kit";
import type { CollectionDef, Session, Store, Update } from "@bayad/store";
import { continueAfter, listingOrder } from "../paging/page.js";
import { signingSecretSealedValues } from "./signing-secrets.js";
import type { WebhookEndpointRecord } from "./webhook-endpoint.js";

/** A project's endpoints per environment, newest first: the listing, and the consumer's look-up of who to tell. */
export const webhookEndpointsCollection: CollectionDef = {
  name: "webhook_endpoints",
  indexes: [{ name: "webhook_endpoints_listing", keys: { projectId: 1, environment: 1, createdAt: -1, _id: -1 } }],
};

type Scope = Pick<CallerContext, "projectId" | "environment">;

/** The only code that knows the `webhook_endpoints` collection. */
export function createWebhookEndpointsRepository(store: Store) {
  const endpoints = store.collection<WebhookEndpointRecord>(webhookEndpointsCollection);
  return {
    /** Seals every endpoint's signing secrets again under the ring's newest key. */
    resealSecrets(keys: SealingKeys): Promise<ResealCounts> {
      return resealCollection(endpoints, keys, signingSecretSealedValues);
    },

    /** One of the scope's endpoints; another project's or environment's does not exist for it. */
    findById(scope: Scope, endpointId: string, session?: Session): Promise<WebhookEndpointRecord | null> {
      return endpoints.findOne({ _id: endpointId, projectId: scope.projectId, environment: scope.environment }, { session });
    },

    /** Unscoped: for the dispatcher, which holds an attempt that names its endpoint. */
    findForDelivery(endpointId: string, session?: Session): Promise<WebhookEndpointRecord | null> {
      return endpoints.findOne({ _id: endpointId }, { session });
    },

    /** The scope's enabled endpoints (a project has few): who an event is for. */
    findEnabled(scope: Scope, session: Session): Promise<WebhookEndpointRecord[]> {
      return endpoints.find({ projectId: scope.projectId, environment: scope.environment, status: "enabled" }, { session });
    },

    findPage(scope: Scope, after: PagePosition | undefined, limit: number): Promise<WebhookEndpointRecord[]> {
      return endpoints.find(continueAfter({ projectId: scope.projectId, environment: scope.environment }, after), { sort: listingOrder, limit });
    },

    insert(record: WebhookEndpointRecord, session: Session): Promise<void> {
      return endpoints.insertOne(record, { session });
    },

    /** Changes one of the scope's endpoints; the endpoint after the change, or null when it does not exist. */
    update(scope: Scope, endpointId: string, update: Update, session: Session): Promise<WebhookEndpointRecord | null> {
      return endpoints.findOneAndUpdate({ _id: endpointId, projectId: scope.projectId, environment: scope.environment }, update, {
        session,
        returnDocument: "after",
      });
    },

    /** Changes an endpoint the dispatcher holds an attempt of, when it matches `filter` too; whether it did. */
    async updateForDelivery(endpointId: string, filter: Record<string, unknown>, update: Update, session: Session): Promise<boolean> {
      return (await endpoints.updateOne({ ...filter, _id: endpointId }, update, { session })).matched === 1;
    },

    async delete(scope: Scope, endpointId: string, session: Session): Promise<boolean> {
      return (await endpoints.deleteOne({ _id: endpointId, projectId: scope.projectId, environment: scope.environment }, { session })) === 1;
    },
  };
}

export type WebhookEndpointsRepository = ReturnType<typeof createWebhookEndpointsRepository>;
