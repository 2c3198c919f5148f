import { describe, expect, it } from "vitest";
import { generateOtp } from "../otps/generate.js";
import { verifyOtp } from "../otps/verify.js";
import { caller, codeSentTo, createHarness, freshKey } from "../test-support/otp-harness.js";

const sms = (recipient: string) => ({ recipient, channel: "sms" as const, digits: 0, ttlSeconds: 0 });

describe("generate limits", () => {
  it("refuses the 6th code to one recipient in 15 minutes with Retry-After, and sends nothing", async () => {
    const { deps, outbox, otps } = await createHarness();
    // Any spelling of the number is the same recipient.
    for (const spelling of ["+639171234567", "639171234567", "09171234567", "0917 123 4567", "+639171234567"]) {
      await generateOtp(deps, caller(freshKey()), sms(spelling));
    }
    await expect(generateOtp(deps, caller(freshKey()), sms("+639171234567"))).rejects.toMatchObject({
      code: "RATE_LIMITED",
      // 15 minutes, and the 30 seconds of the slice the calls were counted in.
      headers: { "Retry-After": "930" },
    });
    expect(await outbox.list({ recipient: "+639171234567" })).toHaveLength(5);
    expect(await otps()).toHaveLength(5);
    // Another recipient is not affected.
    await generateOtp(deps, caller(freshKey()), sms("+639170000000"));
  });

  it("opens again once the calls have left the window", async () => {
    const { deps, clock } = await createHarness();
    for (let i = 0; i < 5; i++) await generateOtp(deps, caller(freshKey()), sms("+639171234567"));
    clock.advance(929_000);
    await expect(generateOtp(deps, caller(freshKey()), sms("+639171234567"))).rejects.toMatchObject({
      headers: { "Retry-After": "1" },
    });
    clock.advance(1_000);
    await generateOtp(deps, caller(freshKey()), sms("+639171234567"));
  });

  it("holds across two service instances sharing one store", async () => {
    const first = await createHarness();
    const second = await createHarness({ store: first.store, clock: first.clock });
    for (let i = 0; i < 5; i++) {
      const instance = i % 2 === 0 ? first : second;
      await generateOtp(instance.deps, caller(freshKey()), sms("+639171234567"));
    }
    await expect(generateOtp(second.deps, caller(freshKey()), sms("+639171234567"))).rejects.toMatchObject({ code: "RATE_LIMITED" });
    await expect(generateOtp(first.deps, caller(freshKey()), sms("+639171234567"))).rejects.toMatchObject({ code: "RATE_LIMITED" });
  });

  it("limits each caller project and environment", async () => {
    const { deps } = await createHarness({ limits: { generatePerCaller: { limit: 2, windowSeconds: 60 } } });
    await generateOtp(deps, caller(freshKey(), "prj_a"), sms("+639171111111"));
    await generateOtp(deps, caller(freshKey(), "prj_a"), sms("+639172222222"));
    await expect(generateOtp(deps, caller(freshKey(), "prj_a"), sms("+639173333333"))).rejects.toMatchObject({
      code: "RATE_LIMITED",
      headers: { "Retry-After": "62" },
    });
    await generateOtp(deps, caller(freshKey(), "prj_b"), sms("+639173333333"));
  });

  it("lets no more than 5 codes to one recipient through around a fixed window's boundary", async () => {
    const { deps, clock, outbox } = await createHarness();
    clock.advance(900_000 - 5_000);
    for (let i = 0; i < 5; i++) await generateOtp(deps, caller(freshKey()), sms("+639171234567"));
    clock.advance(6_000);
    await expect(generateOtp(deps, caller(freshKey()), sms("+639171234567"))).rejects.toMatchObject({ code: "RATE_LIMITED" });
    expect(await outbox.list({ recipient: "+639171234567" })).toHaveLength(5);
  });

  it("does not count a call one limit refused against the others: one recipient cannot use up its project's limit", async () => {
    const { deps } = await createHarness({ limits: { generatePerCaller: { limit: 6, windowSeconds: 60 } } });
    for (let i = 0; i < 5; i++) await generateOtp(deps, caller(freshKey()), sms("+639171234567"));
    for (let i = 0; i < 10; i++) {
      await expect(generateOtp(deps, caller(freshKey()), sms("+639171234567"))).rejects.toMatchObject({ code: "RATE_LIMITED" });
    }
    await generateOtp(deps, caller(freshKey()), sms("+639170000000"));
  });
});

describe("verify limits", () => {
  async function issued(harness: Awaited<ReturnType<typeof createHarness>>, recipient = "+639171234567") {
    const record = await generateOtp(harness.deps, caller(freshKey()), sms(recipient));
    const code = await codeSentTo(harness.outbox, recipient);
    return { record, code, wrongCode: code === "000000" ? "000001" : "000000" };
  }

  it("refuses the 11th verification of one otpId in a minute (the published limit)", async () => {
    const harness = await createHarness();
    const { record, wrongCode } = await issued(harness);
    for (let i = 0; i < 10; i++) await verifyOtp(harness.deps, caller(freshKey()), { otpId: record._id, code: wrongCode });
    await expect(verifyOtp(harness.deps, caller(freshKey()), { otpId: record._id, code: wrongCode })).rejects.toMatchObject({
      code: "RATE_LIMITED",
      headers: { "Retry-After": "62" },
    });
  });

  it("counts no attempt for a refused verification", async () => {
    const harness = await createHarness({ limits: { verifyPerOtp: { limit: 2, windowSeconds: 60 } } });
    const { record, code, wrongCode } = await issued(harness);
    const attempt = (submitted: string) => verifyOtp(harness.deps, caller(freshKey()), { otpId: record._id, code: submitted });
    await attempt(wrongCode);
    await attempt(wrongCode);
    await expect(attempt(wrongCode)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    await expect(attempt(code)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    expect((await harness.otps())[0]!.attempts).toBe(2);

    harness.clock.advance(62_000);
    expect((await attempt(code)).verified).toBe(true);
  });

  it("limits verifications per recipient across its codes, and per caller", async () => {
    const harness = await createHarness({
      limits: { verifyPerRecipient: { limit: 3, windowSeconds: 900 }, verifyPerCaller: { limit: 4, windowSeconds: 60 } },
    });
    const first = await issued(harness);
    const second = await issued(harness);
    await verifyOtp(harness.deps, caller(freshKey()), { otpId: first.record._id, code: first.wrongCode });
    await verifyOtp(harness.deps, caller(freshKey()), { otpId: second.record._id, code: second.wrongCode });
    await verifyOtp(harness.deps, caller(freshKey()), { otpId: first.record._id, code: first.wrongCode });
    await expect(
      verifyOtp(harness.deps, caller(freshKey()), { otpId: second.record._id, code: second.code }),
    ).rejects.toMatchObject({ code: "RATE_LIMITED" });

    const other = await issued(harness, "+639175555555");
    await verifyOtp(harness.deps, caller(freshKey()), { otpId: other.record._id, code: other.wrongCode });
    // The caller has used its 4 (the call refused per recipient never reached its limit) ...
    await expect(
      verifyOtp(harness.deps, caller(freshKey()), { otpId: other.record._id, code: other.code }),
    ).rejects.toMatchObject({ code: "RATE_LIMITED" });
    // ... while another project is not affected.
    const theirs = await generateOtp(harness.deps, caller(freshKey(), "prj_b"), sms("+639176666666"));
    const theirCode = await codeSentTo(harness.outbox, "+639176666666");
    expect((await verifyOtp(harness.deps, caller(freshKey(), "prj_b"), { otpId: theirs._id, code: theirCode })).verified).toBe(true);
  });
});
