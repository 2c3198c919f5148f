import { createServer } from "node:net";
import { startXenditSimulator, type XenditSimulator } from "@bayad/xendit-simulator";
import { AppError } from "@bayad/kit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ProviderNoAnswerError } from "../port.js";
import { createXenditClient, type XenditClient } from "./xendit-client.js";
import { XenditRejectedError } from "./xendit-errors.js";
import { newXenditTestKey, thrownBy } from "./test-support/xendit-fixture.js";

let simulator: XenditSimulator;
const clients: XenditClient[] = [];

beforeAll(async () => {
  // Two requests a minute per endpoint per account: the third is Xendit's 429.
  simulator = await startXenditSimulator({ rateLimit: { test: 2 } });
});
afterEach(() => simulator.clearFaults());
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await simulator.close();
});

function client(apiBase = simulator.url): XenditClient {
  const made = createXenditClient({ apiBase, secretKey: newXenditTestKey(), responseTimeoutMs: 1_000, connectTimeoutMs: 1_000 });
  clients.push(made);
  return made;
}

const sessionBody = (referenceId: string) => ({ reference_id: referenceId, session_type: "PAY", mode: "PAYMENT_LINK", amount: 100, currency: "PHP", country: "PH" });

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe("createXenditClient", () => {
  it("sends the api-version Xendit's v3 paths require", async () => {
    const xendit = client();
    const created = await xendit.post("/v3/payment_requests", "createQrPh", {
      reference_id: "pi_1", type: "PAY", country: "PH", currency: "PHP", request_amount: 1, channel_code: "QRPH", channel_properties: {},
    });
    expect(created["status"]).toBe("REQUIRES_ACTION");
  });

  it("reads once more after a lost answer to a read", async () => {
    const xendit = client();
    const session = await xendit.post("/sessions", "createCheckoutSession", sessionBody("chk_read"));
    const id = String(session["payment_session_id"]);
    simulator.injectFault({ method: "GET", path: "/sessions", status: "reset" });
    expect((await xendit.get(`/sessions/${id}`, "retrieveSession"))["payment_session_id"]).toBe(id);
  });

  it("gives up on a read after its second lost answer with PROVIDER_UNAVAILABLE", async () => {
    const xendit = client();
    simulator.injectFault({ method: "GET", path: "/sessions", status: 502, times: 2 });
    const error = await thrownBy(() => xendit.get("/sessions/ps-unknown", "retrieveSession"));
    expect((error as AppError).code).toBe("PROVIDER_UNAVAILABLE");
  });

  it("answers a read of something Xendit does not have with a not_found refusal", async () => {
    const error = await thrownBy(() => client().get("/sessions/ps-missing", "retrieveSession"));
    expect(error).toBeInstanceOf(XenditRejectedError);
    expect((error as XenditRejectedError).failure).toBe("not_found");
  });

  it("never sends a create twice: a reset after Xendit made it is ProviderNoAnswerError, with one object made", async () => {
    const xendit = client();
    simulator.injectFault({ method: "POST", path: "/sessions", status: "reset", afterProcessing: true });
    await expect(xendit.post("/sessions", "createCheckoutSession", sessionBody("chk_lost"))).rejects.toBeInstanceOf(ProviderNoAnswerError);
    expect(simulator.objects("session").filter((session) => session["reference_id"] === "chk_lost")).toHaveLength(1);
  });

  it("answers a create that could not connect with PROVIDER_UNAVAILABLE: nothing was sent", async () => {
    const error = await thrownBy(async () => client(await closedPortUrl()).post("/sessions", "createCheckoutSession", sessionBody("chk_x")));
    expect(error).not.toBeInstanceOf(ProviderNoAnswerError);
    expect((error as AppError).code).toBe("PROVIDER_UNAVAILABLE");
  });

  it("answers Xendit's 429 with PROVIDER_UNAVAILABLE and a Retry-After from Rate-Limit-Reset", async () => {
    const xendit = client();
    await xendit.post("/sessions", "createCheckoutSession", sessionBody("chk_r1"));
    await xendit.post("/sessions", "createCheckoutSession", sessionBody("chk_r2"));
    const error = await thrownBy(() => xendit.post("/sessions", "createCheckoutSession", sessionBody("chk_r3")));
    expect(error).not.toBeInstanceOf(ProviderNoAnswerError);
    expect((error as AppError).code).toBe("PROVIDER_UNAVAILABLE");
    expect(Number((error as AppError).headers?.["Retry-After"])).toBeGreaterThan(0);
    expect(simulator.objects("session").filter((session) => session["reference_id"] === "chk_r3")).toHaveLength(0);
  });
});
