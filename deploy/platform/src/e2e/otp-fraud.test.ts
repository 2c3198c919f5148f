import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, startTestPlatform, type TestPlatform } from "../test-support/harness.js";
import { newEmail, newPhone as phoneIn, otpCalls } from "../test-support/otp-calls.js";

/**
 * The OTP fraud signals through the gateway: the prefix limit, the per-client limit (the end
 * user's address the merchant's backend passes as clientIp) and the suspicious-prefix state.
 * Philippine mobile numbers sharing a prefix stand for a pumped range.
 */

let api: TestPlatform;
const calls = otpCalls(() => api);
const { outbox } = calls;

beforeAll(async () => {
  api = await startTestPlatform({
    OTP_GENERATE_PREFIX_LIMIT: "3",
    OTP_GENERATE_CLIENT_LIMIT: "10",
    OTP_SUSPICIOUS_MIN_GENERATED: "3",
    OTP_SUSPICIOUS_MIN_VERIFIED_PERCENT: "50",
  });
});

afterAll(async () => {
  await api?.close();
});

/** A generate to `recipient` by SMS or e-mail as it reads, for the end user at `clientIp` when given. */
const generate = (recipient: string, clientIp?: string) =>
  calls.generate({ recipient, channel: recipient.includes("@") ? "email" : "sms", ...(clientIp ? { clientIp } : {}) });

async function verifyFromOutbox(recipient: string, otpId: string) {
  const code = (await outbox(recipient)).find((message) => message.otpId === otpId)?.body.match(/\b(\d{6})\b/)?.[1];
  const verified = await calls.verify(otpId, code ?? "");
  expect(verified.body.data.verified).toBe(true);
}

describe("OTP fraud signals", () => {
  it("refuses a burst of SMS codes to one prefix past its limit, naming it, and sends nothing", async () => {
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) {
      const recipient = phoneIn("+63917");
      const created = await generate(recipient);
      expect(created.status).toBe(201);
      sent.push(recipient);
      // Verified, so the prefix is not suspicious: the limit is what refuses.
      if (i < 2) await verifyFromOutbox(recipient, created.body.data.otpId as string);
    }
    const refusedTo = phoneIn("+63917");
    const refused = await generate(refusedTo);
    expectError(refused, 429, "RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.body.error.details).toEqual(["prefix: at most 3 codes in 600 s to numbers starting +63917"]);
    expect(await outbox(refusedTo)).toEqual([]);
    for (const recipient of sent) expect(await outbox(recipient)).toHaveLength(1);
    // Another prefix is not affected.
    expect((await generate(phoneIn("+63919"))).status).toBe(201);
  });

  it("refuses a burst to a foreign premium range without a send: by country by default, by the prefix limit once the country is allowed", async () => {
    // Latvian mobile ranges are a classic destination of SMS pumping (international revenue share).
    const pumped = Array.from({ length: 8 }, () => `+3712012${randomInt(1000, 9999)}`);
    for (const recipient of pumped) {
      const refused = await generate(recipient, "198.51.100.20");
      expectError(refused, 422, "SMS_COUNTRY_NOT_ALLOWED");
      expect(await outbox(recipient)).toEqual([]);
    }
    // A premium-rate number is refused whatever the country.
    const premium = await generate("+44 909 879 0000");
    expectError(premium, 400, "VALIDATION_FAILED");
    expect(premium.body.error.details).toEqual(["recipient: a premium-rate number cannot receive SMS"]);

    // A project that serves Latvia allows it; a burst to one range still stops after 3 codes: none
    // verified, the range is paused as suspicious (this platform's thresholds: 3 codes, 50 %).
    const settings = `/admin/v1/projects/${api.platform.projectId}/otp-settings/test`;
    const allowed = await api.request("PUT", settings, { body: { smsCountries: ["PH", "LV"] }, credential: api.platform.adminApiKey });
    expect(allowed.status).toBe(200);
    const outcomes = [];
    for (const recipient of pumped) {
      const answer = await generate(recipient);
      outcomes.push(answer.status === 201 ? "sent" : String(answer.body.error.code));
    }
    expect(outcomes).toEqual(["sent", "sent", "sent", ...Array(5).fill("SUSPICIOUS_TRAFFIC")]);
    for (const [index, recipient] of pumped.entries()) expect(await outbox(recipient)).toHaveLength(index < 3 ? 1 : 0);
    await api.request("PUT", settings, { body: { smsCountries: ["PH"] }, credential: api.platform.adminApiKey });
  });

  it("limits codes per end-user address (clientIp, an IPv6 one by its /64); requests without one are not limited per client", async () => {
    for (let i = 0; i < 10; i++) expect((await generate(newEmail(), "203.0.113.9")).status).toBe(201);
    const refused = await generate(newEmail(), "203.0.113.9");
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.body.error.details).toEqual(["client: at most 10 codes in 60 s from one client address"]);
    // Another end user, and the backend's own requests without clientIp, go on.
    expect((await generate(newEmail(), "2001:db8::4")).status).toBe(201);
    // An IPv6 subscriber counts by its /64: stepping through its addresses does not help.
    for (let i = 1; i <= 10; i++) expect((await generate(newEmail(), `2001:db8:aa:bb::${i}`)).status).toBe(201);
    expectError(await generate(newEmail(), "2001:db8:aa:bb:ffff::1"), 429, "RATE_LIMITED");
    for (let i = 0; i < 11; i++) expect((await generate(newEmail())).status).toBe(201);
    expectError(await generate(newEmail(), "not-an-address"), 400, "VALIDATION_FAILED");
  });

  it("pauses SMS to a prefix whose codes go unverified with SUSPICIOUS_TRAFFIC; e-mail goes on", async () => {
    for (let i = 0; i < 3; i++) expect((await generate(phoneIn("+63918"))).status).toBe(201);
    const recipient = phoneIn("+63918");
    const refused = await generate(recipient);
    expectError(refused, 429, "SUSPICIOUS_TRAFFIC");
    expect(refused.body.error.message).toMatch(/SMS codes to numbers starting \+63918 are paused until/);
    expect(refused.body.error.details).toEqual(["recipient: numbers starting +63918 are paused for suspicious traffic"]);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3_500);
    expect(await outbox(recipient)).toEqual([]);
    expect((await generate(newEmail())).status).toBe(201);
  });
});
