import { describe, expect, it } from "vitest";
import { durationMs, loadCompose, parseComposeFile, schemaErrors } from "./test-support/compose.js";
import { readRepoFile } from "./test-support/conventions.js";

// Static checks of deploy/mongodb-replica-set.compose.yaml (no Docker engine runs here): the
// one-node replica set that the MongoDB store's contract suite runs against.
const FILE = "deploy/mongodb-replica-set.compose.yaml";
const compose = loadCompose({}, FILE);
const mongodb = compose.services.mongodb!;
const healthcheck = [mongodb.healthcheck!.test].flat().join(" ");

describe(FILE, () => {
  it("is a Compose file by the Compose Specification's schema, and holds the one MongoDB service", () => {
    expect(schemaErrors(parseComposeFile(FILE))).toEqual([]);
    expect(Object.keys(compose.services)).toEqual(["mongodb"]);
  });

  it("runs MongoDB 8 as a member of the replica set rs0", () => {
    expect(mongodb.image).toMatch(/^mongo:8(\.|$)/);
    expect(mongodb.command?.join(" ")).toMatch(/--replSet rs0\b/);
    expect(mongodb.command).toContain("--bind_ip_all");
  });

  it("initiates the set once, with the member at the address the host reaches, and is healthy only as the writable primary", () => {
    const published = (mongodb.ports ?? []).map(String);
    expect(published).toEqual(["127.0.0.1:27017:27017"]);
    expect(healthcheck).toMatch(/try \{ rs\.status\(\); \} catch \(e\) \{ rs\.initiate\(\{ _id: 'rs0', members: \[\{ _id: 0, host: '127\.0\.0\.1:27017' \}\] \}\); \}/);
    expect(healthcheck).toMatch(/if \(!db\.hello\(\)\.isWritablePrimary\) quit\(1\);/);
    const check = mongodb.healthcheck as unknown as { interval: string; retries: number; start_period: string };
    expect(durationMs(check.start_period) + durationMs(check.interval) * check.retries, "time allowed to elect itself").toBeGreaterThanOrEqual(30_000);
  });

  it("documents the MONGODB_URI that reaches it, naming the replica set", () => {
    const uri = /MONGODB_URI='([^']+)'/.exec(readRepoFile(FILE))?.[1];
    expect(uri).toBeDefined();
    const url = new URL(uri!);
    expect(url.protocol).toBe("mongodb:");
    expect(url.host).toBe("127.0.0.1:27017");
    expect(url.searchParams.get("replicaSet")).toBe("rs0");
  });
});
