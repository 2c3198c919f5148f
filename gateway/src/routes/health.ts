import { AppError } from "@bayad/kit";
import { HealthCheckResponse_ServingStatus } from "@bayad/proto";
import type { Store } from "@bayad/store";
import type { ServiceClients } from "../rpc/service-clients.js";
import type { OperationHandlers } from "./operation.js";

const checkTimeoutMs = 2_000;

/** /healthz: the process is alive. /readyz: its store, and every service it routes to, answer. */
export function healthRoutes(store: Store, clients: ServiceClients): OperationHandlers {
  return {
    async healthz() {
      return { status: 200, data: { status: "ok" } };
    },

    async readyz() {
      const checks: Record<string, string> = {};
      const failed: string[] = [];
      const record = async (name: string, check: () => Promise<boolean>) => {
        const ok = await check().catch(() => false);
        checks[name] = ok ? "ok" : "unavailable";
        if (!ok) failed.push(name);
      };
      await Promise.all([
        record("store", () => store.ping().then(() => true)),
        ...Object.entries(clients.health).map(([name, health]) =>
          record(name, async () => {
            const response = await health.client.check({ service: health.service }, { timeoutMs: checkTimeoutMs });
            return response.status === HealthCheckResponse_ServingStatus.SERVING;
          }),
        ),
      ]);
      if (failed.length > 0) {
        throw new AppError("SERVICE_UNAVAILABLE", "The gateway is not ready.", {
          details: failed.map((name) => `${name}: unavailable`),
        });
      }
      return { status: 200, data: { status: "ready", checks } };
    },
  };
}
