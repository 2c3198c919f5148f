import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { AppError } from "@bayad/kit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ProviderNoAnswerError } from "../port.js";
import { createPaymongoClient, type PaymongoClient } from "./paymongo-client.js";
import { PaymongoRejectedError } from "./paymongo-errors.js";
import { closedPortUrl, newTestKey, thrownBy } from "./test-support/simulator-fixture.js";

let simulator: PaymongoSimulator;
const clients: PaymongoClient[] = [];

const clientFor = (secretKey = newTestKey(), options: { responseTimeoutMs?: number; readRetries?: number; writeRetries?: number; apiBase?: string } = {}) => {
  const client = createPaymongoClient({ apiBase: simulator.url, secretKey, responseTimeoutMs: 2_000, ...options });
  clients.push(client);
  return client;
};

beforeAll(async () => {
  simulator = await startPaymongoSimulator();
});
afterEach(() => simulator.clearFaults());
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await simulator.close();
});

const sessionAttributes = (reference: string) => ({
  line_items: [{ name: reference, amount: 10_000, currency: "PHP", quantity: 1 }],
  payment_method_types: ["gcash"],
  success_url: "https://shop.example/ok",
  cancel_url: "https://shop.example/cancel",
  reference_number: reference,
  metadata: { bayad_resource_id: reference },
});

describe("createPaymongoClient", () => {
  it("authenticates with the key and reads PayMongo's JSON:API answers", async () => {
    const client = clientFor();
    const created = await client.post("/v1/checkout_sessions", "createCheckoutSession", sessionAttributes("order-1"));
    const id = (created.data as { id: string }).id;
    expect(id).toMatch(/^cs_/);

    const read = await client.get(`/v1/checkout_sessions/${id}`, "retrieveCheckoutSession");
    expect(read.data).toMatchObject({ id, type: "checkout_session", attributes: { reference_number: "order-1", livemode: false } });
    // Another key is another account: it cannot see the session.
    const other = await thrownBy(() => clientFor().get(`/v1/checkout_sessions/${id}`, "retrieveCheckoutSession"));
    expect(other).toBeInstanceOf(PaymongoRejectedError);
    expect(other).toMatchObject({ code: "PROVIDER_REJECTED", providerStatus: 404 });
    expect((other as PaymongoRejectedError).hasCode("resource_not_found")).toBe(true);
  });

  it("maps PayMongo's 4xx to PROVIDER_REJECTED with one detail per provider error, naming the field", async () => {
    const error = await thrownBy(() => clientFor().post("/v1/refunds", "createRefund", { amount: 50, reason: "because" }));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "PROVIDER_REJECTED", httpStatus: 422 });
    const details = (error as AppError).details!;
    expect(details).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^amount: .+ \(parameter_below_minimum\)$/),
        expect.stringMatching(/^payment_id: .+ \(parameter_required\)$/),
        expect.stringMatching(/^reason: .+ \(parameter_invalid\)$/),
      ]),
    );
  });

  it("answers a refused key as PROVIDER_UNAVAILABLE naming only the key's last four characters", async () => {
    const badKey = "sk_test_short9Zq7";
    const error = await thrownBy(() => clientFor(badKey).get("/v1/webhooks", "listWebhooks"));
    expect(error).toMatchObject({ code: "PROVIDER_UNAVAILABLE" });
    const text = `${(error as Error).message} ${JSON.stringify((error as AppError).details ?? [])}`;
    expect(text).toContain("Zq7");
    expect(text).toContain("refused the account's secret key");
    expect(text).not.toContain(badKey);
  });

  describe("reads", () => {
    it.each([500, 503, 429])("are sent again after %s, up to readRetries times, and then succeed", async (status) => {
      simulator.injectFault({ method: "GET", path: "/v1/webhooks", status, times: 3 });
      const answer = await clientFor(undefined, { readRetries: 3 }).get("/v1/webhooks", "listWebhooks");
      expect(answer).toMatchObject({ data: [], has_more: false });
    });

    it("give up after readRetries with PROVIDER_UNAVAILABLE", async () => {
      simulator.injectFault({ method: "GET", path: "/v1/webhooks", status: 500, times: 3 });
      const error = await thrownBy(() => clientFor(undefined, { readRetries: 2 }).get("/v1/webhooks", "listWebhooks"));
      expect(error).toMatchObject({ code: "PROVIDER_UNAVAILABLE" });
      // The third failure was the last attempt of that read; the next read finds PayMongo well.
      await expect(clientFor().get("/v1/webhooks", "listWebhooks")).resolves.toMatchObject({ data: [] });
    });

    it("are sent again after a reset connection and after a response that never came", async () => {
      simulator.injectFault({ method: "GET", path: "/v1/webhooks", status: "reset", times: 1 });
      simulator.injectFault({ method: "GET", path: "/v1/webhooks", status: "timeout", times: 1 });
      const answer = await clientFor(undefined, { responseTimeoutMs: 300 }).get("/v1/webhooks", "listWebhooks");
      expect(answer).toMatchObject({ data: [] });
    });

    it("are not sent again after a 4xx", async () => {
      simulator.injectFault({ method: "GET", path: "/v1/webhooks", status: 400, times: 1 });
      await expect(clientFor().get("/v1/webhooks", "listWebhooks")).rejects.toMatchObject({ code: "PROVIDER_REJECTED" });
      await expect(clientFor().get("/v1/webhooks", "listWebhooks")).resolves.toMatchObject({ data: [] });
    });
  });

  describe("creates without an Idempotency-Key", () => {
    it("are never sent twice: a lost answer is ProviderNoAnswerError and exactly one object exists", async () => {
      const client = clientFor(undefined, { responseTimeoutMs: 300 });
      simulator.injectFault({ method: "POST", path: "/v1/webhooks", status: "timeout", afterProcessing: true });
      const error = await thrownBy(() =>
        client.post("/v1/webhooks", "registerWebhook", { url: "https://bayad.example/provider-webhooks/paymongo/pa_1", events: ["payment.paid"] }),
      );
      expect(error).toBeInstanceOf(ProviderNoAnswerError);
      // PayMongo made it; only the answer was lost, and nothing sent the create again.
      const listed = await client.get("/v1/webhooks", "listWebhooks");
      expect(listed.data).toEqual([expect.objectContaining({ attributes: expect.objectContaining({ url: "https://bayad.example/provider-webhooks/paymongo/pa_1" }) })]);
    });

    it("that time out before PayMongo acts are ProviderNoAnswerError too: the client cannot tell", async () => {
      simulator.injectFault({ method: "POST", path: "/v1/checkout_sessions", status: "timeout" });
      const error = await thrownBy(() =>
        clientFor(undefined, { responseTimeoutMs: 300 }).post("/v1/checkout_sessions", "createCheckoutSession", sessionAttributes("order-timeout")),
      );
      expect(error).toBeInstanceOf(ProviderNoAnswerError);
      expect((error as Error).message).toContain("createCheckoutSession");
    });

    it.each([500, 502])("answered %s are ProviderNoAnswerError (PayMongo may have made the object)", async (status) => {
      simulator.injectFault({ method: "POST", path: "/v1/checkout_sessions", status });
      const error = await thrownBy(() => clientFor().post("/v1/checkout_sessions", "createCheckoutSession", sessionAttributes("order-5xx")));
      expect(error).toBeInstanceOf(ProviderNoAnswerError);
    });

    it("answered by a reset connection are ProviderNoAnswerError", async () => {
      simulator.injectFault({ method: "POST", path: "/v1/checkout_sessions", status: "reset" });
      const error = await thrownBy(() => clientFor().post("/v1/checkout_sessions", "createCheckoutSession", sessionAttributes("order-reset")));
      expect(error).toBeInstanceOf(ProviderNoAnswerError);
    });

    it("answered 429 are PROVIDER_UNAVAILABLE, not sent again, and the next attempt succeeds", async () => {
      const client = clientFor();
      simulator.injectFault({ method: "POST", path: "/v1/checkout_sessions", status: 429 });
      const error = await thrownBy(() => client.post("/v1/checkout_sessions", "createCheckoutSession", sessionAttributes("order-429")));
      expect(error).toMatchObject({ code: "PROVIDER_UNAVAILABLE" });
      const made = await client.post("/v1/checkout_sessions", "createCheckoutSession", sessionAttributes("order-429"));
      expect((made.data as { id: string }).id).toMatch(/^cs_/);
    });

    it("that cannot connect are PROVIDER_UNAVAILABLE: nothing reached PayMongo", async () => {
      const apiBase = await closedPortUrl();
      const client = clientFor(undefined, { apiBase });
      await expect(client.post("/v1/checkout_sessions", "createCheckoutSession", sessionAttributes("order-down"))).rejects.toMatchObject({
        code: "PROVIDER_UNAVAILABLE",
      });
      await expect(clientFor(undefined, { apiBase, readRetries: 1 }).get("/v1/webhooks", "listWebhooks")).rejects.toMatchObject({
        code: "PROVIDER_UNAVAILABLE",
      });
    });
  });

  describe("creates with an Idempotency-Key", () => {
    const webhook = (url: string) => ({ url, events: ["payment.paid"] });
    const webhooksAt = async (client: PaymongoClient, url: string) =>
      ((await client.get("/v1/webhooks", "listWebhooks")).data as Array<{ id: string; attributes: { url: string } }>).filter((hook) => hook.attributes.url === url);

    it("are sent again after a lost answer, and answered with the object the first attempt made", async () => {
      const client = clientFor(undefined, { responseTimeoutMs: 300 });
      simulator.injectFault({ method: "POST", path: "/v1/webhooks", status: "timeout", afterProcessing: true });
      simulator.injectFault({ method: "POST", path: "/v1/webhooks", status: "reset", afterProcessing: true });
      simulator.injectFault({ method: "POST", path: "/v1/webhooks", status: 502, afterProcessing: true });
      const url = "https://bayad.example/provider-webhooks/paymongo/pa_keyed";
      const made = await client.post("/v1/webhooks", "registerWebhook", webhook(url), { idempotencyKey: "key-webhook-1" });
      expect(await webhooksAt(client, url)).toEqual([expect.objectContaining({ id: (made.data as { id: string }).id })]);
    });

    it("are sent again after PayMongo's plain-text 429, and succeed", async () => {
      const client = clientFor();
      simulator.injectFault({ method: "POST", path: "/v1/checkout_sessions", status: 429, times: 2 });
      const made = await client.post("/v1/checkout_sessions", "createCheckoutSession", sessionAttributes("order-keyed-429"), { idempotencyKey: "key-429" });
      expect((made.data as { id: string }).id).toMatch(/^cs_/);
    });

    it("are ProviderNoAnswerError once every attempt lost its answer, with exactly one object made", async () => {
      const client = clientFor(undefined, { writeRetries: 2 });
      simulator.injectFault({ method: "POST", path: "/v1/webhooks", status: "reset", afterProcessing: true, times: 3 });
      const url = "https://bayad.example/provider-webhooks/paymongo/pa_lost";
      await expect(client.post("/v1/webhooks", "registerWebhook", webhook(url), { idempotencyKey: "key-webhook-2" })).rejects.toBeInstanceOf(ProviderNoAnswerError);
      expect(await webhooksAt(client, url)).toHaveLength(1);
    });

    it("answered 503 on every attempt are PROVIDER_UNAVAILABLE and made nothing: another account may take the payment", async () => {
      const client = clientFor(undefined, { writeRetries: 2 });
      simulator.injectFault({ method: "POST", path: "/v1/checkout_sessions", status: 503, times: 3 });
      const thrown = await thrownBy(() => client.post("/v1/checkout_sessions", "createCheckoutSession", sessionAttributes("order-503"), { idempotencyKey: "key-503" }));
      expect(thrown).toMatchObject({ code: "PROVIDER_UNAVAILABLE" });
      expect(thrown).not.toBeInstanceOf(ProviderNoAnswerError);
    });

    it("whose first attempt lost its answer stay ProviderNoAnswerError though the later ones are answered 503", async () => {
      const client = clientFor(undefined, { writeRetries: 2 });
      simulator.injectFault({ method: "POST", path: "/v1/webhooks", status: "reset", afterProcessing: true });
      simulator.injectFault({ method: "POST", path: "/v1/webhooks", status: 503, times: 2 });
      const url = "https://bayad.example/provider-webhooks/paymongo/pa_lost_then_503";
      await expect(client.post("/v1/webhooks", "registerWebhook", webhook(url), { idempotencyKey: "key-webhook-503" })).rejects.toBeInstanceOf(ProviderNoAnswerError);
      expect(await webhooksAt(client, url)).toHaveLength(1);
    });

    it("that never reach PayMongo are PROVIDER_UNAVAILABLE once the attempts run out", async () => {
      const client = clientFor(undefined, { apiBase: await closedPortUrl(), writeRetries: 1 });
      await expect(client.post("/v1/links", "createHostedPayment", { amount: 10_000 }, { idempotencyKey: "key-down" })).rejects.toMatchObject({ code: "PROVIDER_UNAVAILABLE" });
    });

    /** A stand-in PayMongo answering each request as `answers` says in turn, recording each request's Idempotency-Key. */
    async function scripted(answers: Array<(res: ServerResponse) => void>) {
      const keys: Array<string | undefined> = [];
      const server = createServer((req: IncomingMessage, res: ServerResponse) => {
        keys.push(req.headers["idempotency-key"] as string | undefined);
        req.resume();
        (answers[keys.length - 1] ?? answers.at(-1)!)(res);
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return { apiBase: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, keys, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
    }
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => (res: ServerResponse) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    const link = { data: { id: "link_1", type: "link", attributes: { amount: 10_000 } } };

    it("wait while PayMongo says the key's first request is in progress, then get its answer, sending the same key each time", async () => {
      const paymongo = await scripted([json(409, { errors: [{ code: "idempotency_in_progress", detail: "In progress." }] }), json(200, link)]);
      try {
        const answer = await clientFor(undefined, { apiBase: paymongo.apiBase }).post("/v1/links", "createHostedPayment", { amount: 10_000 }, { idempotencyKey: "key-busy" });
        expect(answer).toEqual(link);
        expect(paymongo.keys).toEqual(["key-busy", "key-busy"]);
      } finally {
        await paymongo.close();
      }
    });

    it("are never sent again after a 401", async () => {
      const paymongo = await scripted([json(401, { errors: [{ code: "api_key_required", detail: "Refused." }] })]);
      try {
        const error = await thrownBy(() => clientFor(undefined, { apiBase: paymongo.apiBase }).post("/v1/links", "createHostedPayment", { amount: 10_000 }, { idempotencyKey: "key-401" }));
        expect(error).toMatchObject({ code: "PROVIDER_UNAVAILABLE" });
        expect(paymongo.keys).toHaveLength(1);
      } finally {
        await paymongo.close();
      }
    });

    it("give up at once on a Retry-After too long to wait, passing it on, when nothing can have been made", async () => {
      const paymongo = await scripted([(res) => {
        res.writeHead(429, { "content-type": "text/plain", "retry-after": "60" });
        res.end("Too many requests, please try again later.");
      }]);
      try {
        const error = await thrownBy(() => clientFor(undefined, { apiBase: paymongo.apiBase }).post("/v1/links", "createHostedPayment", { amount: 10_000 }, { idempotencyKey: "key-wait" }));
        expect(error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", headers: { "Retry-After": "60" } });
        expect(paymongo.keys).toHaveLength(1);
      } finally {
        await paymongo.close();
      }
    });
  });

  it("keeps a key under the simulator's rate: many reads at once all succeed without one retry", async () => {
    const limited = await startPaymongoSimulator({ rateLimitPerSecond: 10 });
    // Half the simulator's rate: requests that reach it late (a busy machine) still cannot crowd one of its seconds.
    const client = createPaymongoClient({ apiBase: limited.url, secretKey: newTestKey(), readRetries: 0, requestsPerSecond: 5 });
    try {
      const answers = await Promise.all(Array.from({ length: 15 }, () => client.get("/v1/webhooks", "listWebhooks")));
      expect(answers.every((answer) => Array.isArray(answer.data))).toBe(true);
    } finally {
      await client.close();
      await limited.close();
    }
  });

  it("passes a 429's Retry-After on to the caller of a create", async () => {
    // The simulator's injected 429 has no Retry-After; this endpoint answers with one.
    const server = createServer((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "7" });
      res.end(JSON.stringify({ errors: [{ code: "rate_limit_exceeded", detail: "Slow down." }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const error = await thrownBy(() => clientFor(undefined, { apiBase }).post("/v1/links", "createHostedPayment", { amount: 10_000 }));
      expect(error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", headers: { "Retry-After": "7" } });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("knows its key's mode and shows only its last four characters", () => {
    const key = newTestKey();
    const client = clientFor(key);
    expect(client.livemode).toBe(false);
    expect(client.keyHint).toBe(`…${key.slice(-4)}`);
    expect(clientFor("sk_live_0123456789abcdefXYZW").livemode).toBe(true);
  });
});
