import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listOperations, loadOpenApiDocument } from "@bayad/gateway";
import { nodeHttpRowId } from "./bench-results.js";
import type { BaselineReady } from "./baselines/baseline-response.js";
import { durableFloorPath } from "./baselines/durable-floor-document.js";
import { forkChild } from "./child-process.js";
import { baseline, durableFloor, type Scenario } from "./scenarios.js";

/** A baseline server the benchmark starts in a process of its own (see baselines/). */
export interface BaselineServer {
  id: string;
  label: string;
  module: string;
  /** What is measured against it. */
  scenario: Scenario;
  /** The durable floor writes to a directory of its own on the machine's disk. */
  durable?: true;
}

const routeCount = listOperations(loadOpenApiDocument()).length;

export const nodeHttpServer = server(nodeHttpRowId, "node:http (bare)", "./baselines/node-http-server.js", (id, label) => baseline(id, label, "/"));

export const durableFloorServer: BaselineServer = {
  ...server("baseline.durable-floor", "node:http + one durable LMDB write per POST (the durable floor)", "./baselines/durable-floor-server.js", (id, label) =>
    durableFloor(id, label, durableFloorPath),
  ),
  durable: true,
};

/** The baseline rows, in the table's order: the two denominators first, then the frameworks. */
export const baselineServers: readonly BaselineServer[] = [
  nodeHttpServer,
  durableFloorServer,
  server("baseline.koa", "Koa (bare)", "./baselines/koa-server.js", (id, label) => baseline(id, label, "/")),
  // Scenario 1's route, so the router walks its table as far as it does for the gateway.
  server("baseline.koa-router", `Koa + @koa/router, the gateway's ${routeCount} routes (bare)`, "./baselines/koa-router-server.js", (id, label) =>
    baseline(id, label, "/api/v1/payments/capabilities"),
  ),
];

function server(id: string, label: string, module: string, scenario: (id: string, label: string) => Scenario): BaselineServer {
  return { id, label, module, scenario: scenario(id, label) };
}

/** A baseline server that is listening. */
export interface RunningBaseline {
  url: string;
  /** Stops its process, then removes what it stored. */
  stop(): Promise<void>;
}

/**
 * Starts `baseline` in its own process; the durable floor gets a new directory under the
 * temporary directory (on this machine's disk: /tmp is not tmpfs here, where fdatasync would
 * return at once), removed when it stops.
 */
export async function startBaseline(baseline: BaselineServer): Promise<RunningBaseline> {
  const dataDir = baseline.durable ? await mkdtemp(join(tmpdir(), "bayad-bench-floor-")) : undefined;
  try {
    const env = dataDir === undefined ? process.env : { ...process.env, DURABLE_FLOOR_DIR: dataDir };
    const child = await forkChild<BaselineReady>(baseline.label, new URL(baseline.module, import.meta.url), { env });
    return {
      url: child.ready.url,
      async stop() {
        await child.stop();
        if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
