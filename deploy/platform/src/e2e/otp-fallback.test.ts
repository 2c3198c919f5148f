import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, startTestPlatform, type TestPlatform } from "../test-support/harness.js";
import { newEmail, newPhone, otpCalls } from "../test-support/otp-calls.js";

/**
 * Issue 46's channel fallback through the gateway: a generate naming SMS then e-mail delivers by
 * e-mail when the SMS is refused, and the answer and the status say which channel carried the
 * code and why the other did not.
 */

let api: TestPlatform;
const { generate, verify, status, outbox } = otpCalls(() => api);

beforeAll(async () => {
  api = await startTestPlatform();
});

afterAll(async () => {
  await api?.close();
});

describe("OTP channel fallback", () => {
  it("delivers by e-mail when SMS to a landline is refused; the code verifies and the status names the channel used", async () => {
    const landline = "+63 2 8123 4567";
    const email = newEmail("maria");
    const created = await generate({ channels: [{ channel: "sms", recipient: landline }, { channel: "email", recipient: email }], locale: "fil" });
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(data).toMatchObject({ channel: "email", target: expect.stringMatching(/^m\*\*\*@example\.ph$/) });
    expect(data.channels).toEqual([
      { channel: "sms", target: expect.not.stringContaining("4567"), outcome: "refused", code: "VALIDATION_FAILED", reason: "a landline cannot receive SMS" },
      { channel: "email", target: data.target, outcome: "sent" },
    ]);
    expect(await outbox("+63281234567")).toEqual([]);
    const [message] = await outbox(email);
    expect(message).toMatchObject({ otpId: data.otpId, channel: "email", locale: "fil" });

    const code = /\b(\d{6})\b/.exec(message!.body)![1];
    const verified = await verify(data.otpId, code!);
    expect(verified.body.data).toMatchObject({ verified: true, channel: "email" });
    expect((await status(data.otpId)).body.data).toMatchObject({ status: "verified", channel: "email", channels: data.channels });
  });

  it("uses SMS when it can deliver, and leaves the e-mail untried", async () => {
    const phone = newPhone();
    const email = newEmail();
    const created = await generate({ channels: [{ channel: "sms", recipient: phone }, { channel: "email", recipient: email }] });
    expect(created.status).toBe(201);
    expect(created.body.data.channels.map((entry: { outcome: string }) => entry.outcome)).toEqual(["sent", "not_tried"]);
    expect(await outbox(email)).toEqual([]);
    expect(await outbox(phone)).toHaveLength(1);
  });

  it("answers the first channel's refusal naming every entry when none is allowed, and writes nothing", async () => {
    const refused = await generate({ channels: [{ channel: "sms", recipient: "+6591234567" }, { channel: "sms", recipient: "+63281234567" }] });
    expectError(refused, 422, "SMS_COUNTRY_NOT_ALLOWED");
    expect(refused.body.error.details).toEqual([
      expect.stringMatching(/^channels\[0\]\.recipient: sms refused: a number of SG/),
      "channels[1].recipient: sms refused: a landline cannot receive SMS",
    ]);
    expect(await outbox("+6591234567")).toEqual([]);
  });

  it("refuses channels beside recipient and channel, naming the fields", async () => {
    const refused = await generate({ recipient: newEmail(), channel: "email", channels: [{ channel: "email", recipient: newEmail() }] });
    expectError(refused, 400, "VALIDATION_FAILED");
    expect(refused.body.error.details).toEqual(expect.arrayContaining(["recipient: is not allowed here", "channel: is not allowed here"]));
    const missing = await generate({ locale: "fil" });
    expectError(missing, 400, "VALIDATION_FAILED");
    expect(missing.body.error.details).toEqual(expect.arrayContaining(["recipient: is required", "channel: is required"]));
  });
});
