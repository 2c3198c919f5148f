import { randomUUID } from "node:crypto";
import { MongoClient } from "mongodb";
import { afterAll, describe } from "vitest";
import { describeStoreContract } from "../test-support/store-contract.js";
import { createMongoStore } from "./mongo-store.js";

const uri = process.env.MONGODB_URI ?? "";
const database = `bayad_contract_${randomUUID().replaceAll("-", "").slice(0, 12)}`;

if (uri === "") console.info("Skipping the MongoDB store contract: set MONGODB_URI to a replica set to run it.");

describe.skipIf(uri === "")("MongoDB adapter (set MONGODB_URI to run against a real MongoDB replica set)", () => {
  describeStoreContract("mongodb", async () => createMongoStore({ uri, database }));

  afterAll(async () => {
    const client = new MongoClient(uri);
    try {
      await client.db(database).dropDatabase();
    } finally {
      await client.close();
    }
  });
});
