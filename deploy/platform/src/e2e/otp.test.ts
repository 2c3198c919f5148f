import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, newIdempotencyKey, startTestPlatform, type ApiResponse, type TestPlatform } from "../test-support/harness.js";
import { newEmail, newPhone, otpCalls } from "../test-support/otp-calls.js";

/** The shared OTP interface over real HTTP, through the gateway to the OTP service. */

let api: TestPlatform;
let projectId: string;
const { generate, verify, status, outbox, token } = otpCalls(() => api);

beforeAll(async () => {
  api = await startTestPlatform();
  projectId = api.platform.projectId;
});

afterAll(async () => {
  await api?.close();
});

/** The code the recipient received for `otpId`, read from the development outbox. */
async function codeOf(recipient: string, otpId: string, digits = 6) {
  const message = (await outbox(recipient)).find((entry) => entry.otpId === otpId);
  const code = message?.body.match(new RegExp(`\\b(\\d{${digits}})\\b`))?.[1];
  if (!code) throw new Error(`no code for ${otpId} in the outbox`);
  return code;
}

async function issue(recipient = newPhone(), extra: Record<string, unknown> = {}) {
  const channel = recipient.includes("@") ? "email" : "sms";
  const created = await generate({ recipient, channel, ...extra });
  expect(created.status).toBe(201);
  return { recipient, otpId: created.body.data.otpId as string, data: created.body.data };
}

describe("generateOtp", () => {
  it("sends a 6-digit code by SMS and answers with the masked destination only", async () => {
    const recipient = newPhone();
    const before = Date.now();
    const created = await generate({ recipient, channel: "sms" });
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(data.otpId).toMatch(/^otp_[A-Za-z0-9]{24}$/);
    expect(data.channel).toBe("sms");
    expect(data.target).toBe(`+63*******${recipient.slice(-4)}`);
    expect(data.recipient).toBe(data.target);
    expect(JSON.stringify(created.body)).not.toContain(recipient.slice(3));
    // Default lifetime: 300 seconds.
    const ttl = (Date.parse(data.expiresAt) - before) / 1000;
    expect(ttl).toBeGreaterThan(290);
    expect(ttl).toBeLessThanOrEqual(301);

    const messages = await outbox(recipient);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ otpId: data.otpId, channel: "sms" });
    expect(messages[0]!.body).toMatch(/\b\d{6}\b/);
    expect(JSON.stringify(created.body)).not.toContain(await codeOf(recipient, data.otpId));
  });

  it("sends an e-mail with the digits and lifetime asked for", async () => {
    const recipient = newEmail();
    const before = Date.now();
    const { otpId, data } = await issue(recipient, { digits: 8, ttlSeconds: 600 });
    expect(data.target).toBe("j***@example.ph");
    expect((Date.parse(data.expiresAt) - before) / 1000).toBeGreaterThan(590);
    expect(await codeOf(recipient, otpId, 8)).toMatch(/^\d{8}$/);
  });

  it("replays the same key and body without sending a second message", async () => {
    const recipient = newPhone();
    const key = newIdempotencyKey();
    const first = await generate({ recipient, channel: "sms" }, { idempotencyKey: key });
    const again = await generate({ recipient, channel: "sms" }, { idempotencyKey: key });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data).toEqual(first.body.data);
    expect(await outbox(recipient)).toHaveLength(1);
    const other = await generate({ recipient, channel: "sms", digits: 8 }, { idempotencyKey: key });
    expectError(other, 409, "IDEMPOTENCY_KEY_PAYLOAD_MISMATCH");
    expect(await outbox(recipient)).toHaveLength(1);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ["an unknown channel", { recipient: "+639171234567", channel: "fax" }, "channel"],
    ["an e-mail address for sms", { recipient: "juan@example.ph", channel: "sms" }, "recipient"],
    ["a phone number for email", { recipient: "+639171234567", channel: "email" }, "recipient"],
    ["a number of fewer than 7 digits between dashes", { recipient: "1-----------2", channel: "sms" }, "recipient"],
    ["a list entry's bad number", { channels: [{ channel: "sms", recipient: "+63 917 abc" }] }, "channels.0.recipient"],
    ["no recipient", { channel: "sms" }, "recipient"],
    ["no channel", { recipient: "+639171234567" }, "channel"],
    ["5 digits", { recipient: "+639171234567", channel: "sms", digits: 5 }, "digits"],
    ["11 digits", { recipient: "+639171234567", channel: "sms", digits: 11 }, "digits"],
    ["a 59-second lifetime", { recipient: "+639171234567", channel: "sms", ttlSeconds: 59 }, "ttlSeconds"],
    ["a 1801-second lifetime", { recipient: "+639171234567", channel: "sms", ttlSeconds: 1801 }, "ttlSeconds"],
  ];
  it.each(invalid)("refuses %s with a 400 naming the field, sending nothing", async (_name, body, field) => {
    const response = await generate(body);
    expectError(response, 400, "VALIDATION_FAILED");
    // Every detail names the field: none is about the schema's own structure (its if/then).
    expect(response.body.error.details.length).toBeGreaterThan(0);
    for (const detail of response.body.error.details) expect(detail).toMatch(new RegExp(`^${field}: `));
    // Nothing was sent to the recipient asked for (or, when none is, to the number the other cases use).
    expect(await outbox(typeof body.recipient === "string" ? body.recipient : "+639171234567")).toHaveLength(0);
  });

  it("limits codes per recipient: the 6th in 15 minutes is 429 with Retry-After, and nothing is sent", async () => {
    const recipient = newPhone();
    for (let i = 0; i < 5; i += 1) await issue(recipient);
    const limited = await generate({ recipient, channel: "sms" });
    expectError(limited, 429, "RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await outbox(recipient)).toHaveLength(5);
  });

  it("needs a service token with otp:generate: API keys and other scopes are refused", async () => {
    const recipient = newPhone();
    expectError(await generate({ recipient, channel: "sms" }, { credential: api.platform.testApiKey }), 403, "SERVICE_TOKEN_REQUIRED");
    const verifyOnly = await api.serviceToken(projectId, ["otp:verify"]);
    expectError(await generate({ recipient, channel: "sms" }, { credential: verifyOnly }), 403, "INSUFFICIENT_SCOPE");
    expect(await outbox(recipient)).toHaveLength(0);
  });
});

describe("verifyOtp and getOtpStatus", () => {
  it("verifies the right code once; status reads pending, then verified", async () => {
    const { recipient, otpId, data } = await issue();
    const pending = await status(otpId);
    expect(pending.body.data).toEqual({ otpId, status: "pending", target: data.target, channel: "sms", expiresAt: data.expiresAt, channels: [{ channel: "sms", target: data.target, outcome: "sent" }] });

    const code = await codeOf(recipient, otpId);
    const verified = await verify(otpId, code);
    expect(verified.status).toBe(200);
    expect(verified.body.data).toEqual({ verified: true, otpId, target: data.target, channel: "sms" });
    expect((await status(otpId)).body.data.status).toBe("verified");
    // A code verifies at most once.
    expect((await verify(otpId, code)).body.data.verified).toBe(false);
  });

  it("replays a verification for the same key without counting it again", async () => {
    const { recipient, otpId } = await issue();
    const key = newIdempotencyKey();
    const wrong = (await codeOf(recipient, otpId)) === "000000" ? "111111" : "000000";
    for (let i = 0; i < 6; i += 1) {
      const response = await verify(otpId, wrong, { idempotencyKey: key });
      expect(response.body.data.verified).toBe(false);
    }
    // Six replays of one wrong guess are one attempt: the code is not locked.
    expect((await status(otpId)).body.data.status).toBe("pending");
    expect((await verify(otpId, await codeOf(recipient, otpId))).body.data.verified).toBe(true);
  });

  it("brute force: guessing codes locks the code after 5 wrong attempts, long before a guess could succeed", async () => {
    const { recipient, otpId } = await issue();
    const code = await codeOf(recipient, otpId);
    const guesses = Array.from({ length: 30 }, (_, i) => String(i).padStart(6, "0")).filter((guess) => guess !== code);
    // Guessing stops at the lock, well inside the 10 a minute a code may be tried, so every
    // answer below is the code's own, never the rate limit's.
    let lockedAfter: number | undefined;
    for (const [index, guess] of guesses.entries()) {
      const response = await verify(otpId, guess);
      expect(response.status).toBe(200);
      expect(response.body.data.verified).toBe(false);
      if ((await status(otpId)).body.data.status === "locked") {
        lockedAfter = index + 1;
        break;
      }
    }
    expect(lockedAfter).toBe(5);
    // Locked for good: even the right code no longer verifies.
    const right = await verify(otpId, code);
    expect(right.status).toBe(200);
    expect(right.body.data.verified).toBe(false);
    expect((await status(otpId)).body.data.status).toBe("locked");
  });

  it("limits verifications per code to 10 a minute: then 429 with Retry-After", async () => {
    const { otpId } = await issue();
    // The limit counts in fixed one-minute windows, so a run that straddles a window's end may
    // get up to 20 answers before the first 429, never fewer than 10.
    let answered = 0;
    let limited: ApiResponse | undefined;
    while (!limited && answered <= 20) {
      const response = await verify(otpId, "123456");
      if (response.status === 429) limited = response;
      else answered += 1;
    }
    expect(answered).toBeGreaterThanOrEqual(10);
    expect(answered).toBeLessThanOrEqual(20);
    expectError(limited!, 429, "RATE_LIMITED");
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("refuses a code with non-digits or of the wrong length, naming code, without counting it", async () => {
    const { recipient, otpId } = await issue();
    for (const code of ["12345", "1234567", "12a456"]) {
      const response = await verify(otpId, code);
      expectError(response, 400, "VALIDATION_FAILED");
      expect(response.body.error.details).toEqual([expect.stringMatching(/^code\b/)]);
    }
    expect((await verify(otpId, await codeOf(recipient, otpId))).body.data.verified).toBe(true);
  });

  it("answers 404 for an unknown otpId and for another project's", async () => {
    const { otpId } = await issue();
    const other = await api.newProject();
    const theirToken = await api.serviceToken(other.projectId, ["otp:verify", "otp:read"]);
    expectError(await verify("otp_doesnotexist", "123456"), 404, "RESOURCE_NOT_FOUND");
    expectError(await status("otp_doesnotexist"), 404, "RESOURCE_NOT_FOUND");
    expectError(await verify(otpId, "123456", { credential: theirToken }), 404, "RESOURCE_NOT_FOUND");
    expectError(await status(otpId, theirToken), 404, "RESOURCE_NOT_FOUND");
    expect((await status(otpId)).body.data.status).toBe("pending");
  });

  it("needs otp:verify to verify and otp:read to read a status", async () => {
    const { otpId } = await issue();
    const generateOnly = await api.serviceToken(projectId, ["otp:generate"]);
    expectError(await verify(otpId, "123456", { credential: generateOnly }), 403, "INSUFFICIENT_SCOPE");
    expectError(await status(otpId, generateOnly), 403, "INSUFFICIENT_SCOPE");
  });
});

describe("the development outbox", () => {
  it("is for operators only", async () => {
    const response = await api.request("GET", "/admin/v1/otp/messages?recipient=%2B639171234567", { credential: await token() });
    expect(response.status).toBe(401);
  });
});
