import { describe, expect, it } from "vitest";
import { generateOtp } from "./generate.js";
import { statusAt, type OtpRecord } from "./otp.js";
import { verifyOtp } from "./verify.js";
import { caller, codeSentTo, createHarness, freshKey, type Harness } from "../test-support/otp-harness.js";

const RECIPIENT = "+639171234567";

async function issued(harness: Harness, options: { digits?: number; ttlSeconds?: number } = {}) {
  const record = await generateOtp(harness.deps, caller(freshKey()), {
    recipient: RECIPIENT,
    channel: "sms",
    digits: options.digits ?? 0,
    ttlSeconds: options.ttlSeconds ?? 0,
  });
  return { record, code: await codeSentTo(harness.outbox, RECIPIENT) };
}

/** A code of the same length that is not the right one. */
const wrong = (code: string) => code.replace(/^./, (d) => String((Number(d) + 1) % 10));

const verify = (harness: Harness, otpId: string, code: string, key = freshKey(), projectId = "prj_a") =>
  verifyOtp(harness.deps, caller(key, projectId), { otpId, code });

async function stored(harness: Harness, otpId: string): Promise<OtpRecord> {
  return (await harness.otps()).find((r) => r._id === otpId)!;
}

describe("verifyOtp", () => {
  it("verifies the correct code once; a second time it is false", async () => {
    const harness = await createHarness();
    const { record, code } = await issued(harness);
    expect((await verify(harness, record._id, code)).verified).toBe(true);
    expect((await verify(harness, record._id, code)).verified).toBe(false);
    expect(statusAt(await stored(harness, record._id), harness.clock.now())).toBe("verified");
  });

  it("replays the recorded answer for a retried request without counting again", async () => {
    const harness = await createHarness();
    const { record, code } = await issued(harness);
    const key = freshKey();
    expect((await verify(harness, record._id, wrong(code), key)).verified).toBe(false);
    expect((await verify(harness, record._id, wrong(code), key)).verified).toBe(false);
    expect((await stored(harness, record._id)).attempts).toBe(1);

    const okKey = freshKey();
    expect((await verify(harness, record._id, code, okKey)).verified).toBe(true);
    // A retry of the successful request still hears true, although the code is now used.
    expect((await verify(harness, record._id, code, okKey)).verified).toBe(true);
  });

  it("counts each wrong code; the 5th locks it and then even the correct code fails", async () => {
    const harness = await createHarness();
    const { record, code } = await issued(harness);
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await verify(harness, record._id, wrong(code))).verified).toBe(false);
      expect((await stored(harness, record._id)).attempts).toBe(attempt);
    }
    expect(statusAt(await stored(harness, record._id), harness.clock.now())).toBe("locked");
    expect((await verify(harness, record._id, code)).verified).toBe(false);
    expect((await stored(harness, record._id)).attempts).toBe(5);
  });

  it("never verifies an expired code", async () => {
    const harness = await createHarness();
    const { record, code } = await issued(harness, { ttlSeconds: 60 });
    harness.clock.advance(60_000);
    expect((await verify(harness, record._id, code)).verified).toBe(false);
    expect(statusAt(await stored(harness, record._id), harness.clock.now())).toBe("expired");
  });

  it("refuses a code of the wrong length, naming code, and counts nothing", async () => {
    const harness = await createHarness();
    const { record } = await issued(harness, { digits: 8 });
    for (const code of ["123456", "1234567890", "12345a78"]) {
      await expect(verify(harness, record._id, code)).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
        details: ["code: must be 8 digits"],
      });
    }
    expect((await stored(harness, record._id)).attempts).toBe(0);
  });

  it("does not find another project's OTP, nor an unknown one", async () => {
    const harness = await createHarness();
    const { record, code } = await issued(harness);
    await expect(verify(harness, record._id, code, freshKey(), "prj_other")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    await expect(verify(harness, "otp_unknown", code)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    expect((await verify(harness, record._id, code)).verified).toBe(true);
  });

  it("never counts more than 5 wrong attempts from 20 concurrent guesses", async () => {
    const open = { limit: 100, windowSeconds: 60 };
    const harness = await createHarness({ limits: { verifyPerOtp: open, verifyPerRecipient: open } });
    const { record, code } = await issued(harness);
    const results = await Promise.all(Array.from({ length: 20 }, () => verify(harness, record._id, wrong(code))));
    expect(results.every((r) => !r.verified)).toBe(true);
    const after = await stored(harness, record._id);
    expect(after.attempts).toBe(5);
    expect(Object.keys(after.verifications)).toHaveLength(5);
    expect(after.state).toBe("locked");
    expect((await verify(harness, record._id, code)).verified).toBe(false);
  });

  it("verifies the correct code exactly once among concurrent correct submissions", async () => {
    const harness = await createHarness();
    const { record, code } = await issued(harness);
    const results = await Promise.all(Array.from({ length: 8 }, () => verify(harness, record._id, code)));
    expect(results.filter((r) => r.verified)).toHaveLength(1);
  });

  it("locks out sequential brute force after 5 evaluated guesses", async () => {
    // Limits out of the way: this is about the lock, not the rate limit.
    const open = { limit: 1_000_000, windowSeconds: 60 };
    const harness = await createHarness({ limits: { verifyPerOtp: open, verifyPerRecipient: open, verifyRecipientCeiling: open, verifyPerCaller: open } });
    const { record, code } = await issued(harness);
    const guesses = Array.from({ length: 2_000 }, (_, i) => String(i).padStart(6, "0")).filter((g) => g !== code);
    guesses.push(code);

    let verified = 0;
    for (const guess of guesses) if ((await verify(harness, record._id, guess)).verified) verified += 1;

    const after = await stored(harness, record._id);
    // Only evaluated guesses are recorded (and counted); after the 5th the code is locked and
    // the remaining ~2,000 guesses, the right one last, were never compared.
    const evaluated = Object.keys(after.verifications).length;
    expect(evaluated).toBeLessThanOrEqual(5);
    expect(evaluated).toBeLessThan(10 ** 6 / 2);
    expect(after.attempts).toBe(5);
    expect(verified).toBe(0);
    expect(after.state).toBe("locked");
  });
});
