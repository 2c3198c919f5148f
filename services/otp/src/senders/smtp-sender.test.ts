import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateOtp } from "../otps/generate.js";
import { statusAt } from "../otps/otp.js";
import { verifyOtp } from "../otps/verify.js";
import { caller, createHarness, freshKey } from "../test-support/otp-harness.js";
import { startSmtpSink } from "../test-support/smtp-sink.js";
import { classifySmtpError, createSmtpSender, DeliveryFailedError, DeliveryUncertainError, type MessageSender } from "@bayad/messaging";

const email = (recipient: string) => ({ recipient, channel: "email" as const, digits: 0, ttlSeconds: 0 });

describe("e-mail over SMTP to a real SMTP server", () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let sender: MessageSender;

  beforeAll(async () => {
    sink = await startSmtpSink((recipient) => {
      if (recipient.startsWith("bounce")) return { reject: 550 };
      if (recipient.startsWith("busy")) return { reject: 451 };
      if (recipient.startsWith("silent")) return "hang";
      return "accept";
    });
    sender = createSmtpSender({
      host: "127.0.0.1",
      port: sink.port,
      tls: "none",
      user: "bayad",
      pass: "secret",
      from: "Bayad <no-reply@bayad.test>",
      timeoutMs: 1_000,
    });
  });

  afterAll(async () => {
    await sender.close?.();
    await sink.close();
  });

  it("delivers the code: the server receives the recipient, the subject and a body with the code", async () => {
    const { deps, otps } = await createHarness({ senders: { email: sender } });
    const record = await generateOtp(deps, caller(freshKey()), email("Juana@Example.PH"));

    const mail = sink.received.find((m) => m.to.includes("juana@example.ph"));
    expect(mail).toBeDefined();
    expect(mail!.from).toBe("no-reply@bayad.test");
    expect(mail!.raw).toMatch(/^Subject: Your Bayad verification code\r?$/m);
    const code = /Your Bayad code is (\d{6})\. It expires in 5 minutes\. Never share it\./.exec(mail!.raw)?.[1];
    expect(code).toBeDefined();
    expect(record.delivery).toBe("sent");
    expect((await otps())[0]!.sealedMessage).toBeUndefined();
    expect((await verifyOtp(deps, caller(freshKey()), { otpId: record._id, code: code! })).verified).toBe(true);
  });

  it("turns a 5xx rejection into delivery_failed and OTP_DELIVERY_FAILED", async () => {
    const { deps, otps, clock } = await createHarness({ senders: { email: sender } });
    await expect(generateOtp(deps, caller(freshKey()), email("bounce@example.ph"))).rejects.toMatchObject({
      code: "OTP_DELIVERY_FAILED",
      details: ["recipient: the e-mail server refused the message (550)"],
    });
    expect(statusAt((await otps())[0]!, clock.now())).toBe("delivery_failed");
    expect(sink.received.some((m) => m.to.includes("bounce@example.ph"))).toBe(false);
  });

  it("treats a transient 4xx refusal as a definite failure too (the server did not take it)", async () => {
    const { deps } = await createHarness({ senders: { email: sender } });
    await expect(generateOtp(deps, caller(freshKey()), email("busy@example.ph"))).rejects.toMatchObject({
      code: "OTP_DELIVERY_FAILED",
    });
  });

  it("treats a server that never answers the end of DATA as uncertain", async () => {
    const { deps, otps } = await createHarness({ senders: { email: sender } });
    await expect(generateOtp(deps, caller(freshKey()), email("silent@example.ph"))).rejects.toMatchObject({
      code: "IDEMPOTENCY_OUTCOME_UNKNOWN",
    });
    expect((await otps())[0]).toMatchObject({ delivery: "uncertain", state: "pending" });
  });

  it("treats a server that cannot be reached as a definite failure", async () => {
    const unreachable = createSmtpSender({ host: "127.0.0.1", port: 1, tls: "none", from: "no-reply@bayad.test", timeoutMs: 1_000 });
    await expect(
      unreachable.send({ channel: "email", recipient: "a@example.ph", subject: "s", body: "b", kind: "otp", locale: "en", projectId: "prj_test", resourceId: "otp_1" }),
    ).rejects.toBeInstanceOf(DeliveryFailedError);
  });
});

describe("classifySmtpError", () => {
  it("tells refusals and pre-session failures (definite) from broken sessions (uncertain)", () => {
    const error = (fields: Record<string, unknown>) => Object.assign(new Error("x"), fields);
    expect(classifySmtpError(error({ code: "EMESSAGE", responseCode: 554 }))).toBeInstanceOf(DeliveryFailedError);
    expect(classifySmtpError(error({ code: "EENVELOPE", responseCode: 550 }))).toBeInstanceOf(DeliveryFailedError);
    expect(classifySmtpError(error({ code: "EAUTH", responseCode: 535 }))).toBeInstanceOf(DeliveryFailedError);
    expect(classifySmtpError(error({ code: "ESOCKET", originalCode: "ECONNREFUSED" }))).toBeInstanceOf(DeliveryFailedError);
    expect(classifySmtpError(error({ code: "ETIMEDOUT", timeoutType: "GREETING_TIMEOUT" }))).toBeInstanceOf(DeliveryFailedError);
    // A refused certificate ends the TLS handshake, before anything of the message is sent.
    expect(classifySmtpError(error({ code: "ESOCKET", originalCode: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" }))).toBeInstanceOf(DeliveryFailedError);
    expect(classifySmtpError(error({ code: "ESOCKET", originalCode: "ERR_TLS_CERT_ALTNAME_INVALID" }))).toBeInstanceOf(DeliveryFailedError);
    expect(classifySmtpError(error({ code: "ECONNECTION" }))).toBeInstanceOf(DeliveryUncertainError);
    expect(classifySmtpError(error({ code: "ETIMEDOUT", timeoutType: "SOCKET_TIMEOUT" }))).toBeInstanceOf(DeliveryUncertainError);
    expect(classifySmtpError(error({ code: "EABORT" }))).toBeInstanceOf(DeliveryUncertainError);
  });
});
