import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, startTestPlatform, type TestPlatform } from "../test-support/harness.js";

/**
 * OTP limits per recipient count per project and environment: over real HTTP, with the default
 * limits, another project sending to or guessing against a number never locks out this project's
 * user of the same number.
 */

const otp = "/api/v1/shared/otp";

let api: TestPlatform;
/** Service tokens of two projects: A's user and B, the other project at the same numbers. */
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  api = await startTestPlatform();
  const scopes = ["otp:generate", "otp:verify", "otp:read"];
  tokenA = await api.serviceToken(api.platform.projectId, scopes);
  tokenB = await api.serviceToken((await api.newProject("Project B")).projectId, scopes);
});

afterAll(async () => {
  await api?.close();
});

const newPhone = () => `+63917${String(randomInt(1_000_000, 9_999_999))}`;

const generate = (token: string, recipient: string) =>
  api.request("POST", `${otp}/generate`, { body: { recipient, channel: "sms" }, credential: token });
const verify = (token: string, otpId: string, code: string) =>
  api.request("POST", `${otp}/verify`, { body: { otpId, code }, credential: token });

async function issue(token: string, recipient: string): Promise<string> {
  const created = await generate(token, recipient);
  expect(created.status).toBe(201);
  return created.body.data.otpId as string;
}

/** The code sent for `otpId`, read from the development outbox. */
async function codeOf(recipient: string, otpId: string): Promise<string> {
  const response = await api.request("GET", `/admin/v1/otp/messages?recipient=${encodeURIComponent(recipient)}`, {
    credential: api.platform.adminApiKey,
  });
  const messages = response.body.data as Array<{ otpId: string; body: string }>;
  const code = messages.find((message) => message.otpId === otpId)?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code for ${otpId} in the outbox`);
  return code;
}

const wrong = (code: string) => (code === "000000" ? "000001" : "000000");

describe("OTP limits per project and environment", () => {
  it("project B using up its 5 codes for a number leaves project A able to send to and verify it", async () => {
    const number = newPhone();
    for (let i = 0; i < 5; i++) await issue(tokenB, number);
    expectError(await generate(tokenB, number), 429, "RATE_LIMITED");

    const otpId = await issue(tokenA, number);
    const verified = await verify(tokenA, otpId, await codeOf(number, otpId));
    expect(verified.status).toBe(200);
    expect(verified.body.data.verified).toBe(true);
  });

  it("project B using up its 20 verifications for a number leaves project A able to verify it", async () => {
    const number = newPhone();
    // Ten guesses at each of two codes (the most one code takes a minute): B's 20 for the number.
    for (let i = 0; i < 2; i++) {
      const otpId = await issue(tokenB, number);
      const guess = wrong(await codeOf(number, otpId));
      for (let j = 0; j < 10; j++) expect((await verify(tokenB, otpId, guess)).status).toBe(200);
    }
    const fresh = await issue(tokenB, number);
    expectError(await verify(tokenB, fresh, await codeOf(number, fresh)), 429, "RATE_LIMITED");

    const otpId = await issue(tokenA, number);
    const verified = await verify(tokenA, otpId, await codeOf(number, otpId));
    expect(verified.status).toBe(200);
    expect(verified.body.data.verified).toBe(true);
  });
});
