import { startXenditSimulator, type XenditSimulator } from "@bayad/xendit-simulator";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createXenditAccountSetup, type XenditAccountSetup } from "./xendit-account-setup.js";
import { newXenditTestKey, thrownBy } from "./test-support/xendit-fixture.js";

let simulator: XenditSimulator;
let setup: XenditAccountSetup;

beforeAll(async () => {
  simulator = await startXenditSimulator();
  setup = createXenditAccountSetup({ apiBase: simulator.url, responseTimeoutMs: 1_000 });
});
afterEach(() => simulator.clearFaults());
afterAll(async () => {
  await simulator.close();
});

describe("createXenditAccountSetup().checkKey", () => {
  it("accepts a key Xendit accepts (its read of a payment request that cannot exist answers 404), and makes nothing", async () => {
    const before = simulator.objects("payment_request").length;
    await expect(setup.checkKey(newXenditTestKey())).resolves.toBeUndefined();
    await expect(setup.checkKey(`xnd_production_${newXenditTestKey().slice(16)}`)).resolves.toBeUndefined();
    expect(simulator.objects("payment_request")).toHaveLength(before);
  });

  it("refuses a key Xendit refuses (401) with VALIDATION_FAILED naming secretKey by its last four characters only", async () => {
    const key = "xnd_development_not-a-key-Q7z1";
    const error = await thrownBy(() => setup.checkKey(key));
    expect(error).toMatchObject({ code: "VALIDATION_FAILED", details: ["secretKey: Xendit refused the key ending in Q7z1"] });
    expect(JSON.stringify({ message: (error as Error).message, details: (error as { details: unknown }).details })).not.toContain(key);
  });

  it("refuses a key that may not read payment requests (403)", async () => {
    simulator.injectFault({ method: "GET", path: "/v3/payment_requests/", status: 403, code: "INVALID_MERCHANT_SETTINGS" });
    expect(await thrownBy(() => setup.checkKey(newXenditTestKey()))).toMatchObject({ code: "VALIDATION_FAILED", details: [expect.stringMatching(/^secretKey: /)] });
  });

  it("is PROVIDER_UNAVAILABLE when Xendit cannot answer (twice unreachable), not a refusal of the key", async () => {
    simulator.injectFault({ method: "GET", path: "/v3/payment_requests/", status: "reset", times: 2 });
    expect(await thrownBy(() => setup.checkKey(newXenditTestKey()))).toMatchObject({ code: "PROVIDER_UNAVAILABLE" });
  });
});
