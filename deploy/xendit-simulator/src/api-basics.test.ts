import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startXenditSimulator, type XenditSimulator } from "./index.js";
import { apiClient, newSecretKey, paymentRequestBody } from "./test-support/api-client.js";

let sim: XenditSimulator;
beforeEach(async () => {
  sim = await startXenditSimulator();
});
afterEach(async () => {
  await sim.close();
});

const basic = (user: string) => `Basic ${Buffer.from(user).toString("base64")}`;
async function getWith(authorization: string | undefined) {
  const response = await fetch(`${sim.url}/refunds/rfd-none`, { headers: authorization ? { authorization } : {} });
  return { status: response.status, body: (await response.json()) as { error_code: string; message: string } };
}

describe("authentication", () => {
  it.each([
    ["no Authorization header", undefined],
    ["a Bearer token", `Bearer ${newSecretKey()}`],
    ["a public key", basic("xnd_public_development_abc:")],
    ["a PayMongo key", basic(`sk_test_${"a".repeat(24)}:`)],
    ["a password beside the key", basic(`${newSecretKey()}:secret`)],
    ["no colon after the key", basic(newSecretKey())],
  ])("answers 401 in Xendit's error shape for %s", async (_, header) => {
    const answer = await getWith(header);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error_code: "INVALID_API_KEY", message: expect.any(String) });
  });

  it.each(["test", "live"] as const)("accepts a %s secret key as the Basic user name with an empty password", async (mode) => {
    const answer = await getWith(basic(`${newSecretKey(mode)}:`));
    expect(answer.status).toBe(404);
    expect(answer.body.error_code).toBe("DATA_NOT_FOUND");
  });

  it("keeps each key's objects to itself", async () => {
    const mine = apiClient(sim.url);
    const request = await mine.create("/v3/payment_requests", paymentRequestBody());
    const stolen = await apiClient(sim.url).get(`/v3/payment_requests/${request.payment_request_id}`);
    expect(stolen.status).toBe(404);
    expect(stolen.body.error_code).toBe("DATA_NOT_FOUND");
    expect((await mine.get(`/v3/payment_requests/${request.payment_request_id}`)).status).toBe(200);
  });
});

describe("requests", () => {
  it("refuses a v3 call without api-version 2024-11-11, and makes nothing", async () => {
    const api = apiClient(sim.url);
    for (const version of ["", "2022-07-31"]) {
      const answer = await api.post("/v3/payment_requests", paymentRequestBody(), { "api-version": version });
      expect(answer.status).toBe(400);
      expect(answer.body.error_code).toBe("API_VALIDATION_ERROR");
    }
    expect(sim.events()).toEqual([]);
    expect((await api.post("/v3/payment_requests", paymentRequestBody())).status).toBe(201);
  });

  it("answers 400 API_VALIDATION_ERROR to a body that is not a JSON object", async () => {
    const response = await fetch(`${sim.url}/refunds`, {
      method: "POST",
      headers: { authorization: basic(`${newSecretKey()}:`), "content-type": "application/json" },
      body: "[1,",
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error_code: string }).error_code).toBe("API_VALIDATION_ERROR");
  });

  it("answers 404 DATA_NOT_FOUND for a path it does not serve", async () => {
    const answer = await apiClient(sim.url).post("/v3/payment_requests/pr-1/capture", {});
    expect(answer.status).toBe(404);
    expect(answer.body.error_code).toBe("DATA_NOT_FOUND");
  });
});
