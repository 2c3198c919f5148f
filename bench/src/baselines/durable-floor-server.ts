import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { createEmbeddedStore, type Doc } from "@bayad/store";
import { announceFailure } from "../ipc.js";
import { durableFloorPath } from "./durable-floor-document.js";
import { serveBaseline } from "./serve-baseline.js";

/**
 * The durable floor (a child process of the benchmark): bare `node:http` that answers each POST
 * only after one awaited write of the ~1 KB document it carries (durable-floor-document.ts) to
 * @bayad/store's embedded store in DURABLE_FLOOR_DIR, a directory on the machine's disk that the
 * benchmark creates and removes. One collection without a secondary index, so each request is
 * exactly one LMDB commit plus the store's group-committed fdatasync (lmdb-environment.ts): what
 * any service that acknowledges a write only once it is durable must pay on this disk, whatever
 * else it does. The denominator of every write row's "vs durable floor".
 */
const path = process.env.DURABLE_FLOOR_DIR;
if (!path) announceFailure(new Error("DURABLE_FLOOR_DIR is not set (the benchmark sets it)"));
const store = createEmbeddedStore({ path });
const documents = store.collection<Doc & Record<string, unknown>>({ name: "documents" });

const created = JSON.stringify({ ok: true, service: "durable-floor" });

const server = createServer((request, response) => {
  if (request.method !== "POST" || request.url !== durableFloorPath) {
    response.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    let document: Record<string, unknown>;
    try {
      document = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    } catch {
      response.writeHead(400).end();
      return;
    }
    documents.insertOne({ ...document, _id: randomUUID() }).then(
      () => response.writeHead(201, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(created) }).end(created),
      () => response.writeHead(500).end(),
    );
  });
});

serveBaseline(server);
