import { describe, expect, it } from "vitest";
import { Registry } from "@bayad/kit";
import { generateOtp } from "../otps/generate.js";
import { verifyOtp } from "../otps/verify.js";
import { caller, codeSentTo, counterValues, createHarness, freshKey, scriptedSender } from "../test-support/otp-harness.js";
import { numberPrefix } from "./number-prefix.js";

const sms = (recipient: string, clientAddress = "") => ({ recipient, channel: "sms" as const, digits: 0, ttlSeconds: 0, clientAddress });
const email = (recipient: string, clientAddress = "") => ({ recipient, channel: "email" as const, digits: 0, ttlSeconds: 0, clientAddress });

describe("numberPrefix", () => {
  it("keeps the country code (1, 2 or 3 digits) and the next 3 digits", () => {
    expect(numberPrefix("+639171234567")).toBe("+63917");
    expect(numberPrefix("+8821234567890")).toBe("+882123");
    expect(numberPrefix("+14155550123")).toBe("+1415");
    expect(numberPrefix("+79161234567")).toBe("+7916");
    expect(numberPrefix("+2348031234567")).toBe("+234803");
  });
});

describe("prefix and client limits", () => {
  it("refuses a burst to one foreign range past the prefix limit, without sending", async () => {
    const sender = scriptedSender([]);
    const { deps, otps, clock } = await createHarness({ limits: { generatePerPrefix: { limit: 3, windowSeconds: 600 } }, senders: { sms: sender } });
    // Guernsey's mobiles (+44 7911…), which both projects allow besides the Philippines.
    for (const projectId of ["prj_a", "prj_b"]) {
      await deps.settings.put({ projectId, environment: "test", smsCountries: ["PH", "GG"], appName: "", templates: {} }, clock.now());
    }
    for (let i = 0; i < 3; i++) await generateOtp(deps, caller(freshKey()), sms(`+44791112345${i}`));
    for (let i = 3; i < 6; i++) {
      await expect(generateOtp(deps, caller(freshKey()), sms(`+44791112345${i}`))).rejects.toMatchObject({
        code: "RATE_LIMITED",
        headers: { "Retry-After": expect.stringMatching(/^\d+$/) },
        details: ["prefix: at most 3 codes in 600 s to numbers starting +44791"],
      });
    }
    expect(sender.sent).toHaveLength(3);
    expect(await otps()).toHaveLength(3);
    // Another range, and another project's codes to the same range, are not affected.
    await generateOtp(deps, caller(freshKey()), sms("+639171234567"));
    await generateOtp(deps, caller(freshKey(), "prj_b"), sms("+447911123459"));
    expect(sender.sent).toHaveLength(5);
  });

  it("limits codes from one client address, SMS and e-mail alike", async () => {
    const { deps, outbox } = await createHarness({ limits: { generatePerClient: { limit: 2, windowSeconds: 60 } } });
    await generateOtp(deps, caller(freshKey()), sms("+639171111111", "203.0.113.7"));
    await generateOtp(deps, caller(freshKey()), email("a@example.ph", "203.0.113.7"));
    await expect(generateOtp(deps, caller(freshKey()), email("b@example.ph", "203.0.113.7"))).rejects.toMatchObject({
      code: "RATE_LIMITED",
      details: ["client: at most 2 codes in 60 s from one client address"],
    });
    expect(await outbox.list({ recipient: "b@example.ph" })).toHaveLength(0);
    await generateOtp(deps, caller(freshKey()), email("b@example.ph", "198.51.100.2"));
  });

  it("does not count a call the client limit refused against the prefix limit", async () => {
    const { deps } = await createHarness({
      limits: { generatePerClient: { limit: 1, windowSeconds: 60 }, generatePerPrefix: { limit: 2, windowSeconds: 600 } },
    });
    await generateOtp(deps, caller(freshKey()), sms("+639171111111", "203.0.113.7"));
    await expect(generateOtp(deps, caller(freshKey()), sms("+639172222222", "203.0.113.7"))).rejects.toMatchObject({ code: "RATE_LIMITED" });
    await generateOtp(deps, caller(freshKey()), sms("+639173333333", "198.51.100.2"));
  });
});

describe("verified ratio and suspicious traffic", () => {
  const suspicious = { minGenerated: 4, minVerifiedPercent: 50, windowSeconds: 3_600, cooldownSeconds: 600 };

  it("counts codes generated and verified per project and channel", async () => {
    const metrics = new Registry();
    const harness = await createHarness({ metrics });
    const record = await generateOtp(harness.deps, caller(freshKey()), sms("+639171111111"));
    await generateOtp(harness.deps, caller(freshKey()), sms("+639172222222"));
    await generateOtp(harness.deps, caller(freshKey()), email("a@example.ph"));
    const code = await codeSentTo(harness.outbox, "+639171111111");
    await verifyOtp(harness.deps, caller(freshKey()), { otpId: record._id, code: code === "000000" ? "000001" : "000000" });
    await verifyOtp(harness.deps, caller(freshKey()), { otpId: record._id, code });

    expect(await counterValues(metrics, "bayad_otp_codes_generated_total")).toEqual(
      expect.arrayContaining([
        { project: "prj_a", environment: "test", channel: "sms", value: 2 },
        { project: "prj_a", environment: "test", channel: "email", value: 1 },
      ]),
    );
    // The wrong code counts nothing; the ratio for SMS is 1/2.
    expect(await counterValues(metrics, "bayad_otp_codes_verified_total")).toEqual([{ project: "prj_a", environment: "test", channel: "sms", value: 1 }]);
  });

  it("pauses SMS to a prefix whose codes go unverified, says so, leaves e-mail alone and lifts after the cool-down", async () => {
    const metrics = new Registry();
    const sender = scriptedSender([]);
    const harness = await createHarness({ suspicious, metrics, senders: { sms: sender } });
    const { deps, clock } = harness;
    const first = await generateOtp(deps, caller(freshKey()), sms("+639170000001"));
    const firstCode = /code is (\d+)\./.exec(sender.sent[0] ?? "")?.[1] ?? "";
    await verifyOtp(deps, caller(freshKey()), { otpId: first._id, code: firstCode });
    for (let i = 2; i <= 4; i++) await generateOtp(deps, caller(freshKey()), sms(`+63917000000${i}`));
    expect(sender.sent).toHaveLength(4);

    // 4 generated, 1 verified: 25 %, under 50 %.
    const refusal = generateOtp(deps, caller(freshKey()), sms("+639170000005"));
    await expect(refusal).rejects.toMatchObject({
      code: "SUSPICIOUS_TRAFFIC",
      headers: { "Retry-After": "600" },
      details: ["recipient: numbers starting +63917 are paused for suspicious traffic"],
    });
    await expect(refusal).rejects.toThrow(/SMS codes to numbers starting \+63917 are paused until .*SMS pumping/);
    clock.advance(300_000);
    await expect(generateOtp(deps, caller(freshKey()), sms("+639170000006"))).rejects.toMatchObject({
      code: "SUSPICIOUS_TRAFFIC",
      headers: { "Retry-After": "300" },
    });
    expect(sender.sent).toHaveLength(4);
    // E-mail, another prefix and another project are not affected.
    await generateOtp(deps, caller(freshKey()), email("a@example.ph"));
    await generateOtp(deps, caller(freshKey()), sms("+639180000001"));
    await generateOtp(deps, caller(freshKey(), "prj_b"), sms("+639170000007"));
    expect(await counterValues(metrics, "bayad_otp_generate_refusals_total")).toEqual([
      { project: "prj_a", environment: "test", channel: "sms", reason: "suspicious", value: 2 },
    ]);

    // After the cool-down the prefix starts afresh: the codes before it are not held against it again.
    clock.advance(300_000);
    await generateOtp(deps, caller(freshKey()), sms("+639170000008"));
    expect(sender.sent.at(-1)).toMatch(/code is \d+\./);
  });

  it("holds across two instances sharing one store, and stays off while enough codes are verified", async () => {
    const metrics = new Registry();
    const first = await createHarness({ suspicious, metrics });
    const second = await createHarness({ suspicious, store: first.store, clock: first.clock });
    for (let i = 1; i <= 4; i++) {
      const instance = i % 2 === 0 ? second : first;
      const recipient = `+63917000000${i}`;
      const record = await generateOtp(instance.deps, caller(freshKey()), sms(recipient));
      // Half of them verified (on the other instance): 50 % is not under 50 %.
      if (i <= 2) {
        const other = instance === first ? second : first;
        await verifyOtp(other.deps, caller(freshKey()), { otpId: record._id, code: await codeSentTo(first.outbox, recipient) });
      }
    }
    await generateOtp(second.deps, caller(freshKey()), sms("+639170000005"));
    // 5 generated, 2 verified: 40 %; either instance refuses.
    await expect(generateOtp(first.deps, caller(freshKey()), sms("+639170000006"))).rejects.toMatchObject({ code: "SUSPICIOUS_TRAFFIC" });
    await expect(generateOtp(second.deps, caller(freshKey()), sms("+639170000006"))).rejects.toMatchObject({ code: "SUSPICIOUS_TRAFFIC" });
  });
});
