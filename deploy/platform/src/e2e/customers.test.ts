import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, newIdempotencyKey, startTestPlatform, unique, type ApiResponse, type TestPlatform } from "../test-support/harness.js";

/** createCustomer and getCustomer over real HTTP, through the gateway to the payments service. */

let api: TestPlatform;

beforeAll(async () => {
  api = await startTestPlatform();
});

afterAll(async () => {
  await api?.close();
});

const customers = "/api/v1/payments/customers";

function validCustomer(overrides: Record<string, unknown> = {}) {
  return { customerReference: unique("user"), email: "juan@example.com", name: "Juan dela Cruz", ...overrides };
}

/** A key of exactly `length` characters, unique per call. */
function keyOfLength(length: number): string {
  const random = randomBytes(8).toString("hex");
  return `${random}${"k".repeat(Math.max(0, length - random.length))}`.slice(0, length);
}

function countCustomers(): Promise<number> {
  return api.platform.stores.payments.collection({ name: "customers" }).count({});
}

function expectValidationNaming(response: ApiResponse, field: string): void {
  expect(response.status).toBe(400);
  expect(response.body.success).toBe(false);
  expect(response.body.error.code).toBe("VALIDATION_FAILED");
  expect(response.body.error.details).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${field}\\b`))]));
}

/** Requests createCustomer must refuse, each with the field its 400 has to name. */
const invalidBodies: Array<[string, { body?: unknown; rawBody?: string }, string]> = [
  ["a missing customerReference", { body: { email: "juan@example.com" } }, "customerReference"],
  ["an empty customerReference", { body: validCustomer({ customerReference: "" }) }, "customerReference"],
  ["a 256-character customerReference", { body: validCustomer({ customerReference: "r".repeat(256) }) }, "customerReference"],
  ["a customerReference that is a number", { body: validCustomer({ customerReference: 42 }) }, "customerReference"],
  ["a missing email", { body: { customerReference: "user-1" } }, "email"],
  ["an invalid email", { body: validCustomer({ email: "not-an-email" }) }, "email"],
  ["an email that is a number", { body: validCustomer({ email: 12345 }) }, "email"],
  ["an email that is null", { body: validCustomer({ email: null }) }, "email"],
  ["a 256-character name", { body: validCustomer({ name: "n".repeat(256) }) }, "name"],
  ["a name that is an object", { body: validCustomer({ name: { first: "Juan" } }) }, "name"],
  ["an unknown extra field", { body: validCustomer({ nickname: "JD" }) }, "nickname"],
  ["a body that is an array", { body: [validCustomer()] }, "body"],
  ["a body that is a string", { body: "juan@example.com" }, "body"],
  ["a body that is null", { rawBody: "null" }, "body"],
  ["no body at all", {}, "body"],
];

describe("createCustomer", () => {
  it("creates a customer: 201 with a cus_ id and the fields sent", async () => {
    const body = validCustomer();

    const response = await api.request("POST", customers, { body });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      data: {
        customerId: expect.stringMatching(/^cus_[A-Za-z0-9_]+$/),
        customerReference: body.customerReference,
        email: body.email,
        name: body.name,
      },
    });
  });

  it("creates a customer without a name, and reports none", async () => {
    const body = { customerReference: unique("user"), email: "ana@example.com" };

    const response = await api.request("POST", customers, { body });

    expect(response.status).toBe(201);
    expect(response.body.data.customerReference).toBe(body.customerReference);
    expect(response.body.data.email).toBe(body.email);
    expect(response.body.data).not.toHaveProperty("name");
  });

  it("accepts a customerReference and a name of exactly 255 characters", async () => {
    const body = validCustomer({ customerReference: `${unique("user")}${"r".repeat(255)}`.slice(0, 255), name: "n".repeat(255) });

    const response = await api.request("POST", customers, { body });

    expect(response.status).toBe(201);
    expect(response.body.data.customerReference).toHaveLength(255);
    expect(response.body.data.name).toHaveLength(255);
  });

  it("gives two customers different ids", async () => {
    const first = await api.request("POST", customers, { body: validCustomer() });
    const second = await api.request("POST", customers, { body: validCustomer() });

    expect(first.body.data.customerId).not.toBe(second.body.data.customerId);
  });

  it.each(invalidBodies)("rejects %s with 400 VALIDATION_FAILED naming the field", async (_label, request, field) => {
    const response = await api.request("POST", customers, {
      ...request,
      ...(request.rawBody !== undefined ? { headers: { "Content-Type": "application/json" } } : {}),
    });

    expectValidationNaming(response, field);
  });

  it("names every violation of one request", async () => {
    const response = await api.request("POST", customers, {
      body: { customerReference: "", email: "nope", name: "n".repeat(256), extra: true },
    });

    for (const field of ["customerReference", "email", "name", "extra"]) expectValidationNaming(response, field);
  });

  it("rejects a missing Idempotency-Key with 400 IDEMPOTENCY_KEY_REQUIRED", async () => {
    const response = await api.request("POST", customers, { body: validCustomer(), idempotencyKey: null });

    expectError(response, 400, "IDEMPOTENCY_KEY_REQUIRED");
    expect(response.body.error.details).toEqual(expect.arrayContaining([expect.stringContaining("Idempotency-Key")]));
  });

  it.each([15, 256, 1])("rejects a %i-character Idempotency-Key with 400 IDEMPOTENCY_KEY_INVALID", async (length) => {
    const response = await api.request("POST", customers, { body: validCustomer(), idempotencyKey: keyOfLength(length) });

    expectError(response, 400, "IDEMPOTENCY_KEY_INVALID");
    expect(response.body.error.details).toEqual(expect.arrayContaining([expect.stringContaining("Idempotency-Key")]));
  });

  it.each([16, 255])("accepts a %i-character Idempotency-Key", async (length) => {
    const response = await api.request("POST", customers, { body: validCustomer(), idempotencyKey: keyOfLength(length) });

    expect(response.status).toBe(201);
  });

  it("rejects a second customer with the same customerReference under a new key with 409 RESOURCE_ALREADY_EXISTS", async () => {
    const customerReference = unique("user");
    const first = await api.request("POST", customers, { body: validCustomer({ customerReference }) });
    expect(first.status).toBe(201);

    const second = await api.request("POST", customers, {
      body: validCustomer({ customerReference, email: "someone-else@example.com" }),
    });

    expectError(second, 409, "RESOURCE_ALREADY_EXISTS");
    expect(second.body.error.details).toEqual(expect.arrayContaining([expect.stringContaining("customerReference")]));
  });

  it("keeps the first customer unchanged when a duplicate customerReference is refused", async () => {
    const customerReference = unique("user");
    const first = await api.request("POST", customers, { body: validCustomer({ customerReference }) });
    await api.request("POST", customers, { body: validCustomer({ customerReference, email: "other@example.com" }) });

    const read = await api.request("GET", `${customers}/${first.body.data.customerId}`);

    expect(read.body.data).toEqual(first.body.data);
  });
});

describe("createCustomer writes nothing when it refuses a request", () => {
  it("leaves the customers collection unchanged after every kind of rejected request", async () => {
    const project = await api.newProject();
    const readOnly = await api.serviceToken(project.projectId, ["payments:read"]);
    const taken = unique("user");
    expect((await api.request("POST", customers, { credential: project.testKey, body: validCustomer({ customerReference: taken }) })).status).toBe(201);
    const before = await countCustomers();

    const rejected: ApiResponse[] = [];
    for (const [, request] of invalidBodies) {
      rejected.push(
        await api.request("POST", customers, {
          credential: project.testKey,
          ...request,
          ...(request.rawBody !== undefined ? { headers: { "Content-Type": "application/json" } } : {}),
        }),
      );
    }
    rejected.push(
      await api.request("POST", customers, { credential: project.testKey, body: validCustomer(), idempotencyKey: null }),
      await api.request("POST", customers, { credential: project.testKey, body: validCustomer(), idempotencyKey: keyOfLength(15) }),
      await api.request("POST", customers, { credential: project.testKey, body: validCustomer(), idempotencyKey: keyOfLength(256) }),
      await api.request("POST", customers, { credential: null, body: validCustomer() }),
      await api.request("POST", customers, { credential: `sk_test_${"z".repeat(32)}`, body: validCustomer() }),
      await api.request("POST", customers, { credential: readOnly, body: validCustomer() }),
      await api.request("POST", customers, {
        credential: project.testKey,
        rawBody: JSON.stringify(validCustomer()),
        headers: { "Content-Type": "text/plain" },
      }),
      await api.request("POST", customers, {
        credential: project.testKey,
        rawBody: "{not json",
        headers: { "Content-Type": "application/json" },
      }),
      await api.request("POST", customers, { credential: project.testKey, body: validCustomer({ customerReference: taken }) }),
    );

    for (const response of rejected) expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await countCustomers()).toBe(before);
    // The probe itself sees writes: one accepted request is one more customer.
    expect((await api.request("POST", customers, { credential: project.testKey, body: validCustomer() })).status).toBe(201);
    expect(await countCustomers()).toBe(before + 1);
  });

  it.each([
    ["a validation failure (400)", { body: { email: "juan@example.com" } }],
    ["a malformed body (400)", { rawBody: "{", headers: { "Content-Type": "application/json" } }],
    ["an unsupported media type (415)", { rawBody: "x", headers: { "Content-Type": "text/plain" } }],
  ])("does not consume the Idempotency-Key of %s", async (_label, rejectedRequest) => {
    const key = newIdempotencyKey();
    const body = validCustomer();

    const rejected = await api.request("POST", customers, { ...rejectedRequest, idempotencyKey: key });
    const accepted = await api.request("POST", customers, { body, idempotencyKey: key });

    expect(rejected.status).toBeGreaterThanOrEqual(400);
    expect(rejected.status).toBeLessThan(500);
    expect(accepted.status).toBe(201);
    expect(accepted.headers.get("Idempotent-Replayed")).toBeNull();
    expect(accepted.body.data.customerReference).toBe(body.customerReference);
  });

  it("does not consume the Idempotency-Key of a request refused for its credential (401, 403)", async () => {
    const project = await api.newProject();
    const readOnly = await api.serviceToken(project.projectId, ["payments:read"]);
    const key = newIdempotencyKey();
    const body = validCustomer();

    const unauthenticated = await api.request("POST", customers, { credential: null, body, idempotencyKey: key });
    const forbidden = await api.request("POST", customers, { credential: readOnly, body, idempotencyKey: key });
    const accepted = await api.request("POST", customers, { credential: project.testKey, body, idempotencyKey: key });

    expect(unauthenticated.status).toBe(401);
    expect(forbidden.status).toBe(403);
    expect(accepted.status).toBe(201);
    expect(accepted.headers.get("Idempotent-Replayed")).toBeNull();
  });
});

describe("getCustomer", () => {
  it("reads a created customer back with the same fields", async () => {
    const created = await api.request("POST", customers, { body: validCustomer() });

    const read = await api.request("GET", `${customers}/${created.body.data.customerId}`);

    expect(read.status).toBe(200);
    expect(read.body).toEqual({ success: true, data: created.body.data });
  });

  it("reads a customer created without a name back without one", async () => {
    const created = await api.request("POST", customers, {
      body: { customerReference: unique("user"), email: "ana@example.com" },
    });

    const read = await api.request("GET", `${customers}/${created.body.data.customerId}`);

    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(created.body.data);
    expect(read.body.data).not.toHaveProperty("name");
  });

  it.each(["not-a-cus-id", "cus_has-a-dash", "CUS_upper", "cus_"])(
    "rejects the malformed customer id %s with 400 VALIDATION_FAILED naming customerId",
    async (customerId) => {
      const response = await api.request("GET", `${customers}/${customerId}`);

      expectValidationNaming(response, "customerId");
    },
  );

  it("rejects a customer id longer than 255 characters naming customerId", async () => {
    const response = await api.request("GET", `${customers}/cus_${"a".repeat(300)}`);

    expectValidationNaming(response, "customerId");
  });

  it("answers 404 RESOURCE_NOT_FOUND for a well-formed id no customer has", async () => {
    const response = await api.request("GET", `${customers}/cus_${randomBytes(12).toString("hex")}`);

    expectError(response, 404, "RESOURCE_NOT_FOUND");
  });

  it("refuses an unknown query parameter naming it", async () => {
    const created = await api.request("POST", customers, { body: validCustomer() });

    const response = await api.request("GET", `${customers}/${created.body.data.customerId}?expand=everything`);

    expectValidationNaming(response, "expand");
  });
});
