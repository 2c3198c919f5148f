import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateOtp } from "../otps/generate.js";
import { statusAt } from "../otps/otp.js";
import { verifyOtp } from "../otps/verify.js";
import { toSemaphoreNumber, createSemaphoreSender, DeliveryFailedError, DeliveryUncertainError, type MessageSender } from "@bayad/messaging";
import { caller, createHarness, freshKey } from "../test-support/otp-harness.js";
import { startFakeSemaphore } from "../test-support/fake-semaphore.js";

const sms = (recipient: string) => ({ recipient, channel: "sms" as const, digits: 0, ttlSeconds: 0 });

describe("SMS through Semaphore (a local stand-in)", () => {
  let semaphore: Awaited<ReturnType<typeof startFakeSemaphore>>;
  let sender: MessageSender;

  beforeAll(async () => {
    semaphore = await startFakeSemaphore();
    sender = createSemaphoreSender({ apiKey: "sem-key-123", senderName: "BAYAD", baseUrl: semaphore.baseUrl, timeoutMs: 2_000 });
  });

  afterAll(() => semaphore.close());

  const lastRequest = () => semaphore.requests[semaphore.requests.length - 1]!;

  it("posts the message in Semaphore's format and reads its answer as sent", async () => {
    const { deps } = await createHarness({ senders: { sms: sender } });
    const record = await generateOtp(deps, caller(freshKey()), sms("+639171234567"));

    const request = lastRequest();
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/api/v4/messages");
    expect(request.contentType).toBe("application/x-www-form-urlencoded");
    expect(request.form).toMatchObject({ apikey: "sem-key-123", number: "09171234567", sendername: "BAYAD" });
    expect(Object.keys(request.form).sort()).toEqual(["apikey", "message", "number", "sendername"]);
    const code = /^Your Bayad code is (\d{6})\. It expires in 5 minutes\. Never share it\.$/.exec(request.form.message!)?.[1];
    expect(code).toBeDefined();
    expect(record.delivery).toBe("sent");
    expect((await verifyOtp(deps, caller(freshKey()), { otpId: record._id, code: code! })).verified).toBe(true);
  });

  it("sends every accepted spelling of a Philippine mobile number as 09XXXXXXXXX", async () => {
    const { deps } = await createHarness({ senders: { sms: sender } });
    for (const spelling of ["639181234567", "09191234567"]) {
      await generateOtp(deps, caller(freshKey()), sms(spelling));
      expect(lastRequest().form.number).toMatch(/^09\d{9}$/);
    }
    expect(toSemaphoreNumber("+63 917 123 4567")).toBe("09171234567");
    expect(toSemaphoreNumber("+6328123456")).toBeNull();
    expect(toSemaphoreNumber("+14155550123")).toBeNull();
  });

  it("fails a number outside the Philippines definitely, without calling Semaphore", async () => {
    const { deps, otps, clock } = await createHarness({ senders: { sms: sender } });
    // The project allows the US, so the number passes its country permissions and reaches the sender.
    await deps.settings.put({ projectId: "prj_a", environment: "test", smsCountries: ["PH", "US"], appName: "", templates: {} }, clock.now());
    const before = semaphore.requests.length;
    await expect(generateOtp(deps, caller(freshKey()), sms("+14155550123"))).rejects.toMatchObject({
      code: "OTP_DELIVERY_FAILED",
      details: ["recipient: the SMS provider only reaches Philippine mobile numbers"],
    });
    expect(semaphore.requests.length).toBe(before);
    expect(statusAt((await otps())[0]!, clock.now())).toBe("delivery_failed");
  });

  it("records Semaphore's refusals as delivery_failed", async () => {
    const { deps, otps, clock } = await createHarness({ senders: { sms: sender } });
    semaphore.answerNext(
      // Its validation answer, which it gives with status 200.
      { status: 200, body: { sendername: ["The selected sendername is invalid."] } },
      { status: 401, body: "Unauthorized" },
      { status: 422, body: { number: ["The number format is invalid."] } },
    );
    for (const detail of [
      "recipient: the SMS provider refused the message: sendername",
      "recipient: the SMS provider refused the message (401)",
      "recipient: the SMS provider refused the message (422: number)",
    ]) {
      await expect(generateOtp(deps, caller(freshKey()), sms("+639171234567"))).rejects.toMatchObject({
        code: "OTP_DELIVERY_FAILED",
        details: [detail],
      });
    }
    for (const record of await otps()) expect(statusAt(record, clock.now())).toBe("delivery_failed");
  });

  it("passes on Semaphore's rate limit as a definite failure with its Retry-After", async () => {
    const { deps } = await createHarness({ senders: { sms: sender } });
    semaphore.answerNext({ status: 429, body: "Too Many Attempts.", headers: { "Retry-After": "40" } });
    await expect(generateOtp(deps, caller(freshKey()), sms("+639171234567"))).rejects.toMatchObject({
      code: "OTP_DELIVERY_FAILED",
      headers: { "Retry-After": "40" },
    });
  });

  it("answers IDEMPOTENCY_OUTCOME_UNKNOWN when the connection drops, and the retry resends once", async () => {
    const { deps, otps } = await createHarness({ senders: { sms: sender } });
    const key = freshKey();
    const before = semaphore.requests.length;
    semaphore.answerNext("drop");
    await expect(generateOtp(deps, caller(key), sms("+639171234567"))).rejects.toMatchObject({ code: "IDEMPOTENCY_OUTCOME_UNKNOWN" });
    expect((await otps())[0]).toMatchObject({ delivery: "uncertain" });

    const reconciled = await generateOtp(deps, caller(key), sms("+639171234567"));
    expect(reconciled).toMatchObject({ delivery: "sent", deliveryAttempts: 2 });
    const sent = semaphore.requests.slice(before);
    expect(sent).toHaveLength(2);
    // The same message, code included.
    expect(sent[1]!.form.message).toBe(sent[0]!.form.message);

    await generateOtp(deps, caller(key), sms("+639171234567"));
    expect(semaphore.requests.length - before).toBe(2);
  });

  it("treats a 5xx as uncertain", async () => {
    semaphore.answerNext({ status: 500, body: ["Something went wrong"] });
    await expect(
      sender.send({ channel: "sms", recipient: "+639171234567", subject: "", body: "Your code", kind: "otp", locale: "en", projectId: "prj_test", resourceId: "otp_1" }),
    ).rejects.toBeInstanceOf(DeliveryUncertainError);
  });

  it("treats an unreachable Semaphore as a definite failure", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", () => resolve()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = createSemaphoreSender({ apiKey: "k", baseUrl: `http://127.0.0.1:${port}` });
    await expect(
      unreachable.send({ channel: "sms", recipient: "+639171234567", subject: "", body: "Your code", kind: "otp", locale: "en", projectId: "prj_test", resourceId: "otp_1" }),
    ).rejects.toBeInstanceOf(DeliveryFailedError);
  });
});
