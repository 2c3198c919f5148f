import { randomUUID } from "node:crypto";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe } from "vitest";
import { describeStoreContract } from "../test-support/store-contract.js";
import { createMongoStore } from "./mongo-store.js";

const uri = process.env.MONGODB_URI ?? "";
const database = `bayad_contract_${randomUUID().replaceAll("-", "").slice(0, 12)}`;

if (uri === "") console.info("Skipping the MongoDB store contract: set MONGODB_URI to a replica set to run it.");

describe.skipIf(uri === "")("MongoDB adapter (set MONGODB_URI to run against a real MongoDB replica set)", () => {
  // With MONGODB_URI set the suite must run: a server that cannot be reached, or a standalone
  // one, fails it here with one clear line instead of skipping or failing every case alike.
  let reachable = false;
  beforeAll(async () => {
    const store = createMongoStore({ uri, database, timeouts: { serverSelectionTimeoutMs: 5_000 } });
    try {
      await store.ping();
      reachable = true;
    } catch (error) {
      throw new Error(`MONGODB_URI is set but the MongoDB store is not ready there (${error instanceof Error ? error.message : String(error)})`, {
        cause: error,
      });
    } finally {
      await store.close();
    }
  });

  describeStoreContract("mongodb", async () => createMongoStore({ uri, database }));

  afterAll(async () => {
    if (!reachable) return;
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 });
    try {
      await client.db(database).dropDatabase();
    } finally {
      await client.close();
    }
  });
});
