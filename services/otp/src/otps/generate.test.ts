import { describe, expect, it, vi } from "vitest";
import { toJsonString } from "@bufbuild/protobuf";
import { GenerateOtpResponseSchema } from "@bayad/proto";
import { generateResponse, statusAt } from "./otp.js";
import { generateOtp } from "./generate.js";
import { verifyOtp } from "./verify.js";
import { DeliveryFailedError, DeliveryUncertainError, type MessageSender } from "@bayad/messaging";
import { caller, codeSentTo, createHarness, freshKey, recordingLogger, scriptedSender } from "../test-support/otp-harness.js";
import type { OtpDeps } from "./otp-deps.js";

/** The OTP an Idempotency-Key generated, found as generate finds it. */
async function otpOfKey(deps: OtpDeps, key: string) {
  const claimed = await deps.keys.find(caller(key));
  return claimed && deps.repository.findById(caller(key), claimed.resourceId);
}

const sms = (recipient = "+639171234567", extra: { digits?: number; ttlSeconds?: number } = {}) => ({
  recipient,
  channel: "sms" as const,
  digits: extra.digits ?? 0,
  ttlSeconds: extra.ttlSeconds ?? 0,
});

describe("generateOtp", () => {
  it("makes a 6-digit code by default, lives 300 s, and sends it once", async () => {
    const { deps, outbox, clock } = await createHarness();
    const record = await generateOtp(deps, caller(freshKey()), sms());

    expect(record._id).toMatch(/^otp_[A-Za-z0-9]{24}$/);
    expect(record.digits).toBe(6);
    expect(record.expiresAt.getTime() - clock.now().getTime()).toBe(300_000);
    expect(await codeSentTo(outbox, "+639171234567")).toMatch(/^\d{6}$/);
    const [message] = await outbox.list({ recipient: "+639171234567" });
    expect(message?.body).toMatch(/^Your Bayad code is \d{6}\. It expires in 5 minutes\. Never share it\.$/);
    expect(record.delivery).toBe("sent");
    expect(statusAt(record, clock.now())).toBe("pending");
  });

  it.each([6, 8, 10])("honours digits = %i", async (digits) => {
    const { deps, outbox } = await createHarness();
    const record = await generateOtp(deps, caller(freshKey()), sms("+639171234567", { digits }));
    expect(record.digits).toBe(digits);
    expect(await codeSentTo(outbox, "+639171234567")).toMatch(new RegExp(`^\\d{${digits}}$`));
  });

  it("never stores, returns or logs the code or the full recipient", async () => {
    const { logger, lines } = recordingLogger();
    const { deps, outbox, store } = await createHarness();
    deps.logger = logger;
    const record = await generateOtp(deps, caller(freshKey()), sms("+639171234567", { digits: 10 }));
    const code = await codeSentTo(outbox, "+639171234567");

    const stored = JSON.stringify([
      await store.collection({ name: "otps" }).find({}),
      await store.collection({ name: "rate_limits" }).find({}),
    ]);
    const response = toJsonString(GenerateOtpResponseSchema, generateResponse(record));
    for (const text of [stored, response, lines.join("\n")]) {
      expect(text).not.toContain(code);
      expect(text).not.toContain("9171234567");
    }
    expect(lines.length).toBeGreaterThan(0);
    // Once delivered, not even the sealed copy kept for a resend remains.
    expect(stored).not.toContain("sealedMessage");
  });

  it("masks an SMS target to the country code and the last 4 digits, in target and recipient", async () => {
    const { deps } = await createHarness();
    for (const spelling of ["+639171234567", "639171234567", "09171234567"]) {
      const response = generateResponse(await generateOtp(deps, caller(freshKey()), sms(spelling)));
      expect(response.target).toBe("+63*******4567");
      expect(response.recipient).toBe("+63*******4567");
    }
  });

  it("masks an e-mail target to the first letter and the domain", async () => {
    const { deps, outbox } = await createHarness();
    const record = await generateOtp(deps, caller(freshKey()), { recipient: "Juan.Dela@Example.com", channel: "email", digits: 0, ttlSeconds: 0 });
    expect(generateResponse(record)).toMatchObject({ target: "j***@example.com", recipient: "j***@example.com" });
    const [message] = await outbox.list({ recipient: "juan.dela@example.com" });
    expect(message).toMatchObject({ channel: "email", recipient: "juan.dela@example.com", subject: "Your Bayad verification code" });
    expect(message?.subject).not.toMatch(/\d/);
  });

  it("replays the same OTP for a repeated Idempotency-Key and sends only one message", async () => {
    const { deps, outbox } = await createHarness();
    const key = freshKey();
    const first = await generateOtp(deps, caller(key), sms());
    const again = await generateOtp(deps, caller(key), sms());
    expect(generateResponse(again)).toEqual(generateResponse(first));
    expect(await outbox.list({ recipient: "+639171234567" })).toHaveLength(1);
  });

  it("makes one OTP and one message from concurrent requests with one key", async () => {
    const { deps, outbox, otps } = await createHarness();
    const key = freshKey();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => generateOtp(deps, caller(key), sms())));
    const ids = new Set(results.flatMap((r) => (r.status === "fulfilled" ? [r.value._id] : [])));
    expect(ids.size).toBe(1);
    // Losers are told to come back (the gateway never lets one key run concurrently anyway).
    for (const r of results) {
      if (r.status === "rejected") expect(["IDEMPOTENCY_KEY_IN_PROGRESS", "RATE_LIMITED"]).toContain(r.reason.code);
    }
    expect(await otps()).toHaveLength(1);
    expect(await outbox.list({ recipient: "+639171234567" })).toHaveLength(1);
  });

  it("refuses a repeated key with a different request", async () => {
    const { deps } = await createHarness();
    const key = freshKey();
    await generateOtp(deps, caller(key), sms("+639171234567"));
    await expect(generateOtp(deps, caller(key), sms("+639179999999"))).rejects.toMatchObject({ code: "IDEMPOTENCY_KEY_PAYLOAD_MISMATCH" });
  });

  it("keeps keys apart per project", async () => {
    const { deps } = await createHarness();
    const key = freshKey();
    const a = await generateOtp(deps, caller(key, "prj_a"), sms());
    const b = await generateOtp(deps, caller(key, "prj_b"), sms());
    expect(a._id).not.toBe(b._id);
  });

  it("validates what the gateway validates, naming the field", async () => {
    const { deps } = await createHarness();
    await expect(generateOtp(deps, caller(freshKey()), { ...sms(), channel: null })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: ["channel: must be sms or email"],
    });
    await expect(generateOtp(deps, caller(freshKey()), sms("not-a-number"))).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: [expect.stringMatching(/^recipient: /)],
    });
    await expect(generateOtp(deps, caller(freshKey()), sms("+639171234567", { digits: 11 }))).rejects.toMatchObject({
      details: ["digits: must be from 6 to 10"],
    });
    await expect(generateOtp(deps, caller(freshKey()), sms("+639171234567", { digits: 5 }))).rejects.toMatchObject({
      details: ["digits: must be from 6 to 10"],
    });
  });
});

describe("generateOtp delivery outcomes", () => {
  it("records a definite failure as delivery_failed, answers OTP_DELIVERY_FAILED, and the code never verifies", async () => {
    const sender = scriptedSender([new DeliveryFailedError("the SMS provider refused the message (401)")]);
    const { deps, otps, clock } = await createHarness({ senders: { sms: sender } });
    const key = freshKey();
    await expect(generateOtp(deps, caller(key), sms())).rejects.toMatchObject({
      code: "OTP_DELIVERY_FAILED",
      details: ["recipient: the SMS provider refused the message (401)"],
    });
    const [record] = await otps();
    expect(statusAt(record!, clock.now())).toBe("delivery_failed");
    expect(record!.sealedMessage).toBeUndefined();

    // The outcome is decided: a retry with the key gets it again and sends nothing.
    await expect(generateOtp(deps, caller(key), sms())).rejects.toMatchObject({ code: "OTP_DELIVERY_FAILED" });
    expect(sender.sent).toHaveLength(1);
    const code = /code is (\d+)/.exec(sender.sent[0]!)![1]!;
    expect((await verifyOtp(deps, caller(freshKey()), { otpId: record!._id, code })).verified).toBe(false);
  });

  it("answers IDEMPOTENCY_OUTCOME_UNKNOWN for an uncertain send; the retry resends the same message once", async () => {
    const sender = scriptedSender([new DeliveryUncertainError("timed out"), "ok"]);
    const { deps, otps } = await createHarness({ senders: { sms: sender } });
    const key = freshKey();
    await expect(generateOtp(deps, caller(key), sms())).rejects.toMatchObject({ code: "IDEMPOTENCY_OUTCOME_UNKNOWN" });
    expect((await otps())[0]).toMatchObject({ delivery: "uncertain", state: "pending" });

    const retried = await generateOtp(deps, caller(key), sms());
    expect(retried).toMatchObject({ delivery: "sent", deliveryAttempts: 2 });
    expect(retried.sealedMessage).toBeUndefined();
    expect(sender.sent).toHaveLength(2);
    expect(sender.sent[1]).toBe(sender.sent[0]);
    // Settled: later retries replay without sending.
    await generateOtp(deps, caller(key), sms());
    expect(sender.sent).toHaveLength(2);
  });

  it("settles as delivery_failed when the one resend is uncertain too", async () => {
    const sender = scriptedSender([new DeliveryUncertainError("dropped"), new DeliveryUncertainError("dropped again")]);
    const { deps, otps, clock } = await createHarness({ senders: { sms: sender } });
    const key = freshKey();
    await expect(generateOtp(deps, caller(key), sms())).rejects.toMatchObject({ code: "IDEMPOTENCY_OUTCOME_UNKNOWN" });
    await expect(generateOtp(deps, caller(key), sms())).rejects.toMatchObject({ code: "OTP_DELIVERY_FAILED" });
    await expect(generateOtp(deps, caller(key), sms())).rejects.toMatchObject({ code: "OTP_DELIVERY_FAILED" });
    expect(sender.sent).toHaveLength(2);
    expect(statusAt((await otps())[0]!, clock.now())).toBe("delivery_failed");
  });

  it("does not resend a code verified while its delivery was uncertain", async () => {
    const sender = scriptedSender([new DeliveryUncertainError("timed out")]);
    const { deps } = await createHarness({ senders: { sms: sender } });
    const key = freshKey();
    await expect(generateOtp(deps, caller(key), sms())).rejects.toMatchObject({ code: "IDEMPOTENCY_OUTCOME_UNKNOWN" });
    const otp = (await otpOfKey(deps, key))!;
    const code = /code is (\d+)/.exec(sender.sent[0]!)![1]!;
    expect((await verifyOtp(deps, caller(freshKey()), { otpId: otp._id, code })).verified).toBe(true);

    expect(await generateOtp(deps, caller(key), sms())).toMatchObject({ delivery: "sent", state: "verified" });
    expect(sender.sent).toHaveLength(1);
  });

  it("reconciles a send its process never finished once the lease has passed", async () => {
    const hanging: MessageSender = { send: () => new Promise<void>(() => {}) };
    const { deps, outbox, clock } = await createHarness({ senders: { sms: hanging } });
    const key = freshKey();
    void generateOtp(deps, caller(key), sms());
    // The record is written (delivery "sending") before the send that never ends.
    await vi.waitFor(async () => {
      expect(await otpOfKey(deps, key)).toMatchObject({ delivery: "sending", deliveryAttempts: 1 });
    });

    // Still within the lease: it may be under way on another replica.
    await expect(generateOtp(deps, caller(key), sms())).rejects.toMatchObject({ code: "IDEMPOTENCY_KEY_IN_PROGRESS" });

    deps.senders.sms = outbox;
    clock.advance(deps.sendingLeaseMs);
    const reconciled = await generateOtp(deps, caller(key), sms());
    expect(reconciled).toMatchObject({ delivery: "sent", deliveryAttempts: 2 });
    expect(await outbox.list({ recipient: "+639171234567" })).toHaveLength(1);
  });

  it("reports expired once expiresAt has passed, without anything writing it", async () => {
    const { deps, clock } = await createHarness();
    const record = await generateOtp(deps, caller(freshKey()), sms("+639171234567", { ttlSeconds: 60 }));
    clock.advance(59_999);
    expect(statusAt(record, clock.now())).toBe("pending");
    clock.advance(1);
    expect(statusAt(record, clock.now())).toBe("expired");
  });
});
