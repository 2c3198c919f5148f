import type { Db } from "mongodb";
import { StoreNotWritableError } from "../port.js";
import { deploymentProblem, readinessProblem, type HelloReply } from "./hello-reply.js";
import { MongoConfigError } from "./mongo-config-error.js";

/** Where readiness writes: one small document, in the store's own database. */
export const READINESS_COLLECTION = "_bayad_readiness";

/**
 * Readiness that proves what requests need, not that a socket answers: the member reached is a
 * writable primary (or mongos), and a write reaches a majority within the operation timeout. A
 * ping stays green on a secondary, and while a majority is lost, when every write would hang
 * until its write-concern timeout. A standalone server throws a MongoConfigError naming
 * MONGODB_URI (it can never be ready: transactions need a replica set); a member that cannot take
 * writes now, StoreNotWritableError.
 */
export async function proveWritable(db: Db, operationTimeoutMs: number): Promise<void> {
  const hello = (await db.admin().command({ hello: 1 })) as HelloReply;
  const deployment = deploymentProblem(hello);
  if (deployment !== undefined) throw new MongoConfigError("MONGODB_URI", deployment);
  const problem = readinessProblem(hello);
  if (problem !== undefined) throw new StoreNotWritableError(`MongoDB is not ready: ${problem}`);
  await db
    .collection<{ _id: string }>(READINESS_COLLECTION)
    .updateOne({ _id: "readiness" }, { $currentDate: { at: true } }, { upsert: true, writeConcern: { w: "majority", wtimeoutMS: operationTimeoutMs } });
}
