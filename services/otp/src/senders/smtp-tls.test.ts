import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { OtpChannel, OtpService } from "@bayad/proto";
import { callerHeaders, createLogger } from "@bayad/kit";
import { readOtpConfig } from "../config.js";
import { startOtpServer } from "../server.js";
import { startSmtpSink, type SinkTls } from "../test-support/smtp-sink.js";
import { createTestCertificates, type TestCertificates } from "../test-support/test-certificates.js";
import { DeliveryFailedError, type OutboundMessage, createSmtpSender, type SmtpSenderOptions } from "@bayad/messaging";
import { createTestStore } from "@bayad/store/testing";

type Sink = Awaited<ReturnType<typeof startSmtpSink>>;

const message = (recipient: string): OutboundMessage => ({
  channel: "email",
  recipient,
  subject: "Your Bayad verification code",
  body: "Your Bayad code is 123456.",
  kind: "otp",
  locale: "en",
  projectId: "prj_test",
  resourceId: "otp_tls",
});

/** Sends one message through a fresh sender to `sink`; the sender is closed afterwards. */
async function send(sink: Sink, options: Pick<SmtpSenderOptions, "tls"> & Partial<SmtpSenderOptions>, recipient: string) {
  const sender = createSmtpSender({ host: "127.0.0.1", port: sink.port, from: "no-reply@bayad.test", timeoutMs: 2_000, ...options });
  try {
    await sender.send(message(recipient));
  } finally {
    await sender.close?.();
  }
}

describe("OTP e-mail over TLS, against a real SMTP server with a certificate made in the test", () => {
  let certificates: TestCertificates;
  /** Another authority's certificate: trusting it must not make the server's trusted. */
  let strangerCa: string;
  const sinks: Sink[] = [];
  let implicit: Sink;
  let starttls: Sink;
  let plainOnly: Sink;

  const tlsSink = async (mode: SinkTls["mode"]) => {
    const sink = await startSmtpSink(() => "accept", { tls: { mode, key: certificates.key, cert: certificates.cert } });
    sinks.push(sink);
    return sink;
  };

  beforeAll(async () => {
    certificates = await createTestCertificates();
    strangerCa = (await createTestCertificates("Stranger CA")).ca;
    implicit = await tlsSink("implicit");
    starttls = await tlsSink("starttls");
    plainOnly = await startSmtpSink();
    sinks.push(plainOnly);
  });

  afterAll(async () => {
    for (const sink of sinks) await sink.close();
  });

  const receivedBy = (sink: Sink, recipient: string) => sink.received.filter((mail) => mail.to.includes(recipient));

  it("delivers over implicit TLS", async () => {
    await send(implicit, { tls: "implicit", ca: certificates.ca }, "implicit@example.ph");
    expect(receivedBy(implicit, "implicit@example.ph")).toEqual([expect.objectContaining({ secure: true })]);
  });

  it("delivers over STARTTLS: the session is encrypted before the message is sent", async () => {
    await send(starttls, { tls: "starttls", ca: certificates.ca }, "starttls@example.ph");
    const [mail] = receivedBy(starttls, "starttls@example.ph");
    expect(mail).toMatchObject({ secure: true });
    expect(mail!.raw).toContain("123456");
  });

  it("refuses a server whose certificate no trusted authority signed, by default, before anything is sent", async () => {
    for (const [sink, tls] of [[implicit, "implicit"], [starttls, "starttls"]] as const) {
      const recipient = `untrusted-${tls}@example.ph`;
      await expect(send(sink, { tls }, recipient)).rejects.toBeInstanceOf(DeliveryFailedError);
      await expect(send(sink, { tls, ca: strangerCa }, recipient)).rejects.toBeInstanceOf(DeliveryFailedError);
      expect(receivedBy(sink, recipient)).toEqual([]);
      // Trusting the authority that signed it is what makes it acceptable.
      await send(sink, { tls, ca: certificates.ca }, recipient);
      expect(receivedBy(sink, recipient)).toHaveLength(1);
    }
  });

  it("accepts an untrusted certificate only when verification is switched off (self-signed development servers)", async () => {
    await send(implicit, { tls: "implicit", verifyCertificate: false }, "unverified@example.ph");
    expect(receivedBy(implicit, "unverified@example.ph")).toHaveLength(1);
  });

  it("refuses a server that offers no STARTTLS rather than sending in the clear", async () => {
    await expect(send(plainOnly, { tls: "starttls", ca: certificates.ca }, "downgrade@example.ph")).rejects.toBeInstanceOf(
      DeliveryFailedError,
    );
    expect(receivedBy(plainOnly, "downgrade@example.ph")).toEqual([]);
  });

  it("delivers a generated code over gRPC with the sender the environment configures (SMTP_TLS, SMTP_CA_FILE)", async () => {
    const caFile = join(mkdtempSync(join(tmpdir(), "bayad-otp-tls-")), "ca.pem");
    writeFileSync(caFile, certificates.ca);
    const server = await startOtpServer({
      store: createTestStore(),
      config: readOtpConfig({
        OTP_HASH_SECRET: "tls-test-secret-tls-test-secret-tls-0001",
        OTP_EMAIL_SENDER: "smtp",
        SMTP_HOST: "localhost",
        SMTP_PORT: String(implicit.port),
        SMTP_TLS: "implicit",
        SMTP_CA_FILE: caFile,
        SMTP_FROM: "Bayad <no-reply@bayad.test>",
      }),
      logger: createLogger("otp-test", "silent"),
    });
    try {
      const client = createClient(OtpService, createGrpcTransport({ baseUrl: server.url }));
      await client.generateOtp(
        { recipient: "grpc-tls@example.ph", channel: OtpChannel.EMAIL, digits: 0, ttlSeconds: 0 },
        { headers: callerHeaders({ projectId: "prj_tls", environment: "test", correlationId: "tls", idempotencyKey: "tls-test-key-000000001" }) },
      );
      const [mail] = receivedBy(implicit, "grpc-tls@example.ph");
      expect(mail).toMatchObject({ secure: true });
      expect(mail!.raw).toMatch(/Your Bayad code is \d{6}\./);
    } finally {
      await server.close();
    }
  });
});
