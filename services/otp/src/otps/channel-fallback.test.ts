import { describe, expect, it } from "vitest";
import { toJson } from "@bufbuild/protobuf";
import { GetOtpStatusResponseSchema } from "@bayad/proto";
import { DeliveryFailedError, DeliveryUncertainError } from "@bayad/messaging";
import { Registry } from "@bayad/kit";
import { caller, codeSentTo, counterValues, createHarness, freshKey, scriptedSender } from "../test-support/otp-harness.js";
import { generateOtp, type GenerateOtpInput } from "./generate.js";
import { statusResponse } from "./otp.js";
import { verifyOtp } from "./verify.js";

const MOBILE = "+639171234567";
const LANDLINE = "+63288881234";
const SINGAPORE_MOBILE = "+6581234567";
const EMAIL = "juan@example.com";

const listed = (...channels: Array<[channel: "sms" | "email", recipient: string]>): GenerateOtpInput => ({
  recipient: "",
  channel: null,
  channels: channels.map(([channel, recipient]) => ({ channel, recipient })),
  digits: 0,
  ttlSeconds: 0,
});

/** The public status of an OTP, as the JSON a client reads. */
async function publicStatus(harness: Awaited<ReturnType<typeof createHarness>>, otpId: string) {
  const record = (await harness.deps.repository.findById(caller("any-key-0000000001"), otpId))!;
  return toJson(GetOtpStatusResponseSchema, statusResponse(record, harness.clock.now())) as Record<string, unknown>;
}

describe("channel fallback", () => {
  it("uses the first channel when it can deliver, and never touches the others", async () => {
    const harness = await createHarness();
    const record = await generateOtp(harness.deps, caller(freshKey()), listed(["sms", MOBILE], ["email", EMAIL]));
    expect(record).toMatchObject({ channel: "sms", target: "+63*******4567", delivery: "sent" });
    expect(await codeSentTo(harness.outbox, MOBILE)).toMatch(/^\d{6}$/);
    expect(await harness.outbox.list({ recipient: EMAIL })).toHaveLength(0);
    expect((await publicStatus(harness, record._id)).channels).toEqual([
      { channel: "OTP_CHANNEL_SMS", target: "+63*******4567", outcome: "OTP_CHANNEL_OUTCOME_SENT" },
      { channel: "OTP_CHANNEL_EMAIL", target: "j***@example.com", outcome: "OTP_CHANNEL_OUTCOME_NOT_TRIED" },
    ]);
  });

  it("delivers by e-mail when SMS to a landline is refused, and says why the SMS was not sent", async () => {
    const harness = await createHarness();
    const record = await generateOtp(harness.deps, caller(freshKey()), listed(["sms", LANDLINE], ["email", EMAIL]));
    expect(record).toMatchObject({ channel: "email", target: "j***@example.com", delivery: "sent" });
    const code = await codeSentTo(harness.outbox, EMAIL);
    expect(await harness.outbox.list({ recipient: LANDLINE })).toHaveLength(0);
    const [sms, email] = (await publicStatus(harness, record._id)).channels as Array<Record<string, string>>;
    expect(sms).toMatchObject({ channel: "OTP_CHANNEL_SMS", outcome: "OTP_CHANNEL_OUTCOME_REFUSED", code: "VALIDATION_FAILED" });
    expect(sms!.reason).toMatch(/landline/);
    expect(sms!.target).not.toContain("8888");
    expect(email).toMatchObject({ channel: "OTP_CHANNEL_EMAIL", outcome: "OTP_CHANNEL_OUTCOME_SENT" });
    expect((await verifyOtp(harness.deps, caller(freshKey()), { otpId: record._id, code })).verified).toBe(true);
  });

  it("delivers by e-mail when the project does not allow SMS to the number's country", async () => {
    const harness = await createHarness();
    const record = await generateOtp(harness.deps, caller(freshKey()), listed(["sms", SINGAPORE_MOBILE], ["email", EMAIL]));
    expect(record.channel).toBe("email");
    expect(record.channels?.[0]).toMatchObject({ outcome: "refused", code: "SMS_COUNTRY_NOT_ALLOWED" });
    expect(await harness.outbox.list({ recipient: SINGAPORE_MOBILE })).toHaveLength(0);
  });

  it("delivers by e-mail when SMS to the prefix is paused as suspicious", async () => {
    const harness = await createHarness({ suspicious: { minGenerated: 3, minVerifiedPercent: 50 } });
    // Three unverified codes to one range pause it.
    for (const last of ["1", "2", "3"]) await generateOtp(harness.deps, caller(freshKey()), listed(["sms", `+63917123456${last}`]));
    const record = await generateOtp(harness.deps, caller(freshKey()), listed(["sms", "+639171234564"], ["email", EMAIL]));
    expect(record.channel).toBe("email");
    expect(record.channels?.[0]).toMatchObject({ outcome: "refused", code: "SUSPICIOUS_TRAFFIC" });
    expect(await harness.outbox.list({ recipient: "+639171234564" })).toHaveLength(0);
  });

  it("falls back to e-mail when the SMS provider fails the message, with the same code", async () => {
    const failingSms = scriptedSender([new DeliveryFailedError("the SMS provider refused the message (400)")]);
    const harness = await createHarness({ senders: { sms: failingSms } });
    const record = await generateOtp(harness.deps, caller(freshKey()), listed(["sms", MOBILE], ["email", EMAIL]));
    expect(record).toMatchObject({ channel: "email", delivery: "sent", deliveryAttempts: 2 });
    expect(record.numberPrefix).toBeUndefined();
    expect(record.sealedMessage).toBeUndefined();
    const smsCode = /code is (\d+)/.exec(failingSms.sent[0]!)![1];
    expect(await codeSentTo(harness.outbox, EMAIL)).toBe(smsCode);
    expect(record.channels).toMatchObject([
      { channel: "sms", outcome: "failed", code: "OTP_DELIVERY_FAILED", reason: "the SMS provider refused the message (400)" },
      { channel: "email", outcome: "used" },
    ]);
  });

  it("fails with every channel's reason when none can deliver, and the code never verifies", async () => {
    const failingEmail = scriptedSender([new DeliveryFailedError("the mail server refused the recipient (550)")]);
    const harness = await createHarness({ senders: { email: failingEmail } });
    const key = freshKey();
    const request = listed(["sms", LANDLINE], ["email", EMAIL]);
    const failure = await generateOtp(harness.deps, caller(key), request).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "OTP_DELIVERY_FAILED" });
    const details = (failure as { details: string[] }).details;
    expect(details[0]).toMatch(/^channels\[0\]\.recipient: sms refused: .*landline/);
    expect(details[1]).toBe("channels[1].recipient: email failed: the mail server refused the recipient (550)");
    const [record] = await harness.otps();
    expect(record).toMatchObject({ delivery: "failed" });
    // The key keeps the outcome: a retry sends nothing more.
    await expect(generateOtp(harness.deps, caller(key), request)).rejects.toMatchObject({ code: "OTP_DELIVERY_FAILED" });
    expect(failingEmail.sent).toHaveLength(1);
  });

  it("answers the first channel's refusal, naming every channel, when the rules refuse them all; nothing is written", async () => {
    const harness = await createHarness();
    await expect(generateOtp(harness.deps, caller(freshKey()), listed(["sms", LANDLINE], ["sms", SINGAPORE_MOBILE]))).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: [expect.stringMatching(/^channels\[0\]\.recipient: sms refused: .*landline/), expect.stringMatching(/^channels\[1\]\.recipient: sms refused: .*SG/)],
    });
    expect(await harness.otps()).toHaveLength(0);
  });

  it("stops at an uncertain send: the retry reconciles on that channel and falls back only if it then fails", async () => {
    const sms = scriptedSender([new DeliveryUncertainError("timed out"), new DeliveryFailedError("the SMS provider refused the message (400)")]);
    const harness = await createHarness({ senders: { sms } });
    const key = freshKey();
    const request = listed(["sms", MOBILE], ["email", EMAIL]);
    await expect(generateOtp(harness.deps, caller(key), request)).rejects.toMatchObject({ code: "IDEMPOTENCY_OUTCOME_UNKNOWN" });
    expect(await harness.outbox.list({ recipient: EMAIL })).toHaveLength(0);

    const reconciled = await generateOtp(harness.deps, caller(key), request);
    expect(reconciled).toMatchObject({ channel: "email", delivery: "sent" });
    expect(sms.sent).toHaveLength(2);
    expect(await codeSentTo(harness.outbox, EMAIL)).toBe(/code is (\d+)/.exec(sms.sent[0]!)![1]);
  });

  it("charges the project's limit once for a code that fell back", async () => {
    const failingSms = scriptedSender([new DeliveryFailedError("refused"), new DeliveryFailedError("refused")]);
    const harness = await createHarness({ senders: { sms: failingSms }, limits: { generatePerCaller: { limit: 2, windowSeconds: 60 } } });
    await generateOtp(harness.deps, caller(freshKey()), listed(["sms", MOBILE], ["email", EMAIL]));
    await generateOtp(harness.deps, caller(freshKey()), listed(["sms", "+639181234567"], ["email", "maria@example.com"]));
    await expect(generateOtp(harness.deps, caller(freshKey()), listed(["email", "pedro@example.com"]))).rejects.toMatchObject({ code: "RATE_LIMITED" });
  });

  it("refuses the same key with another channel list, and replays the same list", async () => {
    const harness = await createHarness();
    const key = freshKey();
    const first = await generateOtp(harness.deps, caller(key), listed(["sms", LANDLINE], ["email", EMAIL]));
    const again = await generateOtp(harness.deps, caller(key), listed(["sms", LANDLINE], ["email", EMAIL]));
    expect(again._id).toBe(first._id);
    await expect(generateOtp(harness.deps, caller(key), listed(["email", EMAIL]))).rejects.toMatchObject({ code: "IDEMPOTENCY_KEY_PAYLOAD_MISMATCH" });
    await expect(generateOtp(harness.deps, caller(key), listed(["email", EMAIL], ["sms", LANDLINE]))).rejects.toMatchObject({ code: "IDEMPOTENCY_KEY_PAYLOAD_MISMATCH" });
    expect(await harness.outbox.list({ recipient: EMAIL })).toHaveLength(1);
  });

  it("refuses a list beside recipient and channel, an unknown channel and more than three entries", async () => {
    const { deps } = await createHarness();
    await expect(generateOtp(deps, caller(freshKey()), { ...listed(["email", EMAIL]), recipient: EMAIL, channel: "email" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: ["channels: give either channels or recipient and channel, not both"],
    });
    await expect(generateOtp(deps, caller(freshKey()), { ...listed(), channels: [{ channel: null, recipient: EMAIL }] })).rejects.toMatchObject({
      details: ["channels[0].channel: must be sms or email"],
    });
    const four = listed(["email", "a@example.com"], ["email", "b@example.com"], ["email", "c@example.com"], ["email", "d@example.com"]);
    await expect(generateOtp(deps, caller(freshKey()), four)).rejects.toMatchObject({ details: ["channels: at most 3 entries"] });
  });

  describe("and the fraud signals", () => {
    const suspicious = { minGenerated: 3, minVerifiedPercent: 50 };

    it("counts a code for the channel that took it: an SMS outage falling back to e-mail never makes the range look pumped", async () => {
      const metrics = new Registry();
      const failingSms = scriptedSender(Array.from({ length: 4 }, () => new DeliveryFailedError("the SMS provider is down (503)")));
      const harness = await createHarness({ senders: { sms: failingSms }, suspicious, metrics });
      for (const last of ["1", "2", "3", "4"]) {
        const email = `user${last}@example.com`;
        const record = await generateOtp(harness.deps, caller(freshKey()), listed(["sms", `+63917123456${last}`], ["email", email]));
        expect(record.channel).toBe("email");
        await verifyOtp(harness.deps, caller(freshKey()), { otpId: record._id, code: await codeSentTo(harness.outbox, email) });
      }
      expect(await counterValues(metrics, "bayad_otp_codes_generated_total")).toEqual([{ project: "prj_a", environment: "test", channel: "email", value: 4 }]);
      // The provider is back: SMS to the range goes, not paused.
      const sms = await generateOtp(harness.deps, caller(freshKey()), listed(["sms", "+639171234569"]));
      expect(sms).toMatchObject({ channel: "sms", delivery: "sent" });
    });

    it("counts an SMS that a failed e-mail fell back to under its range, so pumping through e-mail-first lists is still paused", async () => {
      const metrics = new Registry();
      const failingEmail = scriptedSender(Array.from({ length: 4 }, () => new DeliveryFailedError("the mail server refused the recipient (550)")));
      const harness = await createHarness({ senders: { email: failingEmail }, suspicious, metrics });
      for (const last of ["1", "2", "3"]) {
        const record = await generateOtp(harness.deps, caller(freshKey()), listed(["email", `bot${last}@example.com`], ["sms", `+63917123456${last}`]));
        expect(record.channel).toBe("sms");
      }
      expect(await counterValues(metrics, "bayad_otp_codes_generated_total")).toEqual([{ project: "prj_a", environment: "test", channel: "sms", value: 3 }]);
      await expect(generateOtp(harness.deps, caller(freshKey()), listed(["sms", "+639171234564"]))).rejects.toMatchObject({ code: "SUSPICIOUS_TRAFFIC" });
    });

    it("keeps the range's digits out of what it stores of a refusal", async () => {
      const harness = await createHarness({ suspicious });
      for (const last of ["1", "2", "3"]) await generateOtp(harness.deps, caller(freshKey()), listed(["sms", `+63917123456${last}`]));
      const record = await generateOtp(harness.deps, caller(freshKey()), listed(["sms", "+639171234564"], ["email", EMAIL]));
      expect(record.channels?.[0]).toMatchObject({ code: "SUSPICIOUS_TRAFFIC", reason: "numbers of its range are paused for suspicious traffic" });
      expect(JSON.stringify(record.channels)).not.toContain("917");
    });

    it("counts a country refusal once per request, not again on its replays", async () => {
      const metrics = new Registry();
      const harness = await createHarness({ metrics });
      const key = freshKey();
      const request = listed(["sms", SINGAPORE_MOBILE], ["email", EMAIL]);
      for (let i = 0; i < 3; i++) await generateOtp(harness.deps, caller(key), request);
      expect(await counterValues(metrics, "bayad_otp_generate_refusals_total")).toEqual([
        { project: "prj_a", environment: "test", channel: "sms", reason: "country_not_allowed", value: 1 },
      ]);
    });

    it("answers a limit of the whole request at once, without trying the other entries", async () => {
      const harness = await createHarness({ limits: { generatePerCaller: { limit: 1, windowSeconds: 60 } } });
      await generateOtp(harness.deps, caller(freshKey()), listed(["email", "first@example.com"]));
      await expect(generateOtp(harness.deps, caller(freshKey()), listed(["sms", MOBILE], ["email", EMAIL]))).rejects.toMatchObject({
        code: "RATE_LIMITED",
        headers: { "Retry-After": expect.any(String) },
      });
      expect(await harness.outbox.list({ recipient: EMAIL })).toHaveLength(0);
    });
  });

  it("gives the retry of a failed list every entry's reason, as the first answer did", async () => {
    const failingEmail = scriptedSender([new DeliveryFailedError("the mail server refused the recipient (550)")]);
    const harness = await createHarness({ senders: { email: failingEmail } });
    const key = freshKey();
    const request = listed(["sms", LANDLINE], ["email", EMAIL]);
    const first = await generateOtp(harness.deps, caller(key), request).catch((error: unknown) => error);
    const retried = await generateOtp(harness.deps, caller(key), request).catch((error: unknown) => error);
    expect(retried).toMatchObject({ code: "OTP_DELIVERY_FAILED", details: (first as { details: string[] }).details });
  });

  it("falls back after a reconciling resend fails, and treats the next channel's uncertain send as a first send", async () => {
    const sms = scriptedSender([new DeliveryUncertainError("timed out"), new DeliveryFailedError("the SMS provider refused the message (400)")]);
    const email = scriptedSender([new DeliveryUncertainError("the mail server did not answer"), "ok"]);
    const harness = await createHarness({ senders: { sms, email } });
    const key = freshKey();
    const request = listed(["sms", MOBILE], ["email", EMAIL]);
    await expect(generateOtp(harness.deps, caller(key), request)).rejects.toMatchObject({ code: "IDEMPOTENCY_OUTCOME_UNKNOWN" });
    // The retry resends the SMS (refused now), falls back to e-mail, whose answer is lost: still open.
    await expect(generateOtp(harness.deps, caller(key), request)).rejects.toMatchObject({ code: "IDEMPOTENCY_OUTCOME_UNKNOWN" });
    expect((await harness.otps())[0]).toMatchObject({ channel: "email", delivery: "uncertain" });
    // The next retry reconciles the e-mail by sending it once more, and the code works.
    const settled = await generateOtp(harness.deps, caller(key), request);
    expect(settled).toMatchObject({ channel: "email", delivery: "sent" });
    const code = /code is (\d+)/.exec(email.sent[1]!)![1]!;
    expect((await verifyOtp(harness.deps, caller(freshKey()), { otpId: settled._id, code })).verified).toBe(true);
  });
});
