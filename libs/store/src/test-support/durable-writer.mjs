// A child process for durability.test.ts: opens the embedded store at argv[2] (from the built
// package, dist/) and writes until it is killed, printing each document's _id once its write's
// promise has resolved (stdout is a pipe, written synchronously on Linux): flushed writes and
// deferred ones (port.ts's Durability) alike.
import { createEmbeddedStore } from "../../dist/index.js";

const store = createEmbeddedStore({ path: process.argv[2] });
const payments = store.collection({ name: "payments", indexes: [{ name: "reference_unique", keys: { reference: 1 }, unique: true }] });
const ledger = store.collection({ name: "ledger" });
await store.ensureIndexes();
process.stdout.write("ready\n");

let next = 0;
async function writer() {
  for (;;) {
    const n = next++;
    const id = `p${n}`;
    if (n % 3 === 0) {
      // A transaction: both documents, or neither.
      await store.transaction(async (session) => {
        await payments.insertOne({ _id: id, reference: `ref-${n}`, amount: n, at: new Date() }, { session });
        await ledger.insertOne({ _id: `l${n}`, payment: id }, { session });
      });
    } else {
      // Every third of the others deferred: committed without waiting for the disk, which a
      // process kill must not lose either.
      const durability = n % 3 === 1 ? "deferred" : "flushed";
      await payments.insertOne({ _id: id, reference: `ref-${n}`, amount: n, at: new Date() }, { durability });
    }
    process.stdout.write(`${id}\n`);
  }
}
await Promise.all(Array.from({ length: 8 }, writer));
