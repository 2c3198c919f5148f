import { durableFloorServer, nodeHttpServer, startBaseline, type BaselineServer, type RunningBaseline } from "./baseline-servers.js";
import { isValid, measureScenario, type Denominators } from "./row.js";
import type { LoadSettings } from "./run-autocannon.js";

/** A read row is divided by node:http; a write row by the durable floor as well. */
export type RowKind = "read" | "write";

/**
 * The denominators measured right before each platform row, with the same settings: bare
 * node:http before every row, and the durable floor before every write row. The machine's speed
 * drifts over the minutes a run takes, and a baseline measured minutes earlier would move every
 * ratio with it. Both servers stay up, idle between their runs.
 */
export interface PairedBaselines {
  measureBefore(kind: RowKind): Promise<Denominators>;
  stop(): Promise<void>;
}

export async function startPairedBaselines(load: LoadSettings): Promise<PairedBaselines> {
  const nodeHttp = await startBaseline(nodeHttpServer);
  let floor: RunningBaseline;
  try {
    floor = await startBaseline(durableFloorServer);
  } catch (error) {
    await nodeHttp.stop();
    throw error;
  }
  const requestsPerSecond = async (running: RunningBaseline, server: BaselineServer, purpose: string) => {
    const row = await measureScenario(running.url, { ...server.scenario, label: `${server.label}, ${purpose}` }, load);
    return isValid(row) ? row.result.requestsPerSecond : undefined;
  };
  return {
    async measureBefore(kind) {
      const denominators: Denominators = {};
      const nodeHttpBefore = await requestsPerSecond(nodeHttp, nodeHttpServer, "for the next row's ratio");
      if (nodeHttpBefore !== undefined) denominators.nodeHttpBefore = nodeHttpBefore;
      if (kind === "write") {
        const durableFloorBefore = await requestsPerSecond(floor, durableFloorServer, "for the next row's ratio");
        if (durableFloorBefore !== undefined) denominators.durableFloorBefore = durableFloorBefore;
      }
      return denominators;
    },
    async stop() {
      await Promise.all([nodeHttp.stop(), floor.stop()]);
    },
  };
}
