import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import { ProviderRouteSchema, type ProviderRoute } from "@bayad/proto";
import type { Store } from "@bayad/store";
import { createTestStore } from "@bayad/store/testing";
import type { ProviderAccountRecord } from "../provider-accounts/provider-account.js";
import { createProviderRoutingRepository } from "./provider-routing-repository.js";
import { createProviderRoutingService } from "./provider-routing-service.js";

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** The routing rpcs over a project holding pa_paymongo (oldest) and pa_xendit in test mode, pa_live in live mode. */
async function setup() {
  store = createTestStore();
  const accounts = {
    async listByProject(projectId: string, environment: string) {
      if (projectId !== "prj_both") return [];
      const ids = environment === "test" ? ["pa_paymongo", "pa_xendit"] : ["pa_live"];
      return ids.map((_id) => ({ _id }) as ProviderAccountRecord);
    },
  };
  const repository = createProviderRoutingRepository(store);
  const service = createProviderRoutingService({ repository, accounts, now: () => new Date("2030-01-01T00:00:00Z") });
  await store.ensureIndexes();
  return { service, repository };
}

const route = (init: MessageInitShape<typeof ProviderRouteSchema>) => create(ProviderRouteSchema, { weight: 100, ...init });
const put = (routes: ProviderRoute[], version = 0, environment = "test") =>
  ({ projectId: "prj_both", environment, routes, version }) as Parameters<ReturnType<typeof createProviderRoutingService>["putProviderRouting"]>[0];
const scope = { projectId: "prj_both", environment: "test" } as Parameters<ReturnType<typeof createProviderRoutingService>["getProviderRouting"]>[0];
const peso = (amountMinor: number) => ({ amountMinor: BigInt(amountMinor), currency: "PHP" });

describe("ProviderRoutingService", () => {
  it("answers the default with nothing stored: the oldest account weight 100, the others 0", async () => {
    const { service } = await setup();
    const { providerRouting } = await service.getProviderRouting(scope, {} as never);
    expect(providerRouting).toMatchObject({ default: true, version: 0 });
    expect(providerRouting?.routes?.map((r) => [r.providerAccountId, r.weight])).toEqual([
      ["pa_paymongo", 100],
      ["pa_xendit", 0],
    ]);
  });

  it("stores a valid routing and answers it, with the version bumped", async () => {
    const { service } = await setup();
    const routes = [route({ providerAccountId: "pa_xendit", methods: ["checkout", "gcash"], minAmount: peso(100_00), maxAmount: peso(50_000_00), weight: 300 }), route({ providerAccountId: "pa_paymongo", weight: 700 })];
    const { providerRouting } = await service.putProviderRouting(put(routes), {} as never);
    expect(providerRouting).toMatchObject({ default: false, version: 1 });
    const read = (await service.getProviderRouting(scope, {} as never)).providerRouting;
    expect(read?.routes?.[0]).toMatchObject({ providerAccountId: "pa_xendit", methods: ["checkout", "gcash"], weight: 300, minAmount: { amountMinor: 100_00n } });
  });

  it("refuses a bad routing with details naming routes[i].field, storing nothing", async () => {
    const { service, repository } = await setup();
    const routes = [
      route({ providerAccountId: "pa_paymongo", weight: 1001 }),
      route({ providerAccountId: "pa_live" }),
      route({ providerAccountId: "pa_paymongo", methods: ["cash"] }),
      route({ providerAccountId: "pa_xendit", minAmount: peso(500_00), maxAmount: peso(100_00) }),
    ];
    await expect(service.putProviderRouting(put(routes), {} as never)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: [
        "routes[0].weight: must be an integer from 0 to 1000",
        "routes[1].providerAccountId: pa_live is not a provider account of this project in test mode",
        "routes[2].providerAccountId: pa_paymongo is routed to twice",
        expect.stringMatching(/^routes\[2\]\.methods\[0\]: must be one of checkout, qrph, gcash/),
        "routes[3].maxAmount.amountMinor: must not be below minAmount",
      ],
    });
    await expect(service.putProviderRouting(put([route({ providerAccountId: "pa_paymongo", weight: 0 })]), {} as never)).rejects.toMatchObject({
      details: ["routes: at least one route needs a weight above 0"],
    });
    await expect(service.putProviderRouting(put([]), {} as never)).rejects.toMatchObject({ details: ["routes: at least one route is required"] });
    expect(await repository.find("prj_both", "test")).toBeNull();
  });

  it("applies a put only at the version it read (409 CONCURRENT_MODIFICATION otherwise)", async () => {
    const { service } = await setup();
    const routes = [route({ providerAccountId: "pa_paymongo" })];
    await service.putProviderRouting(put(routes, 0), {} as never);
    await expect(service.putProviderRouting(put(routes, 0), {} as never)).rejects.toMatchObject({ code: "CONCURRENT_MODIFICATION" });
    await service.putProviderRouting(put(routes, 1), {} as never);
    await expect(service.putProviderRouting(put(routes, 1), {} as never)).rejects.toMatchObject({ code: "CONCURRENT_MODIFICATION" });
    expect((await service.getProviderRouting(scope, {} as never)).providerRouting).toMatchObject({ version: 2 });
  });

  it("refuses a request without a project or with an unknown environment", async () => {
    const { service } = await setup();
    await expect(service.getProviderRouting({ projectId: "", environment: "staging" } as typeof scope, {} as never)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: ["projectId: is required", "environment: must be test or live"],
    });
  });
});
