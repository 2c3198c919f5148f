import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { OtpChannel, OtpService, OtpStatus } from "@bayad/proto";
import { callerHeaders, createLogger, fromConnectError, type RunningServer } from "@bayad/kit";
import { readOtpConfig } from "./config.js";
import { startOtpServer } from "./server.js";
import { createClock } from "./test-support/otp-harness.js";
import { createTestStore } from "@bayad/store/testing";

const SECRET = "grpc-test-secret-grpc-test-secret-0001";

const headers = (projectId: string, idempotencyKey?: string) => ({
  headers: callerHeaders({ projectId, environment: "test", correlationId: "grpc-test", idempotencyKey }),
});

describe("OTP service over gRPC (Connect client, HTTP/2)", () => {
  const clock = createClock();
  let server: RunningServer;
  let client: Client<typeof OtpService>;

  beforeAll(async () => {
    server = await startOtpServer({
      store: createTestStore(),
      config: readOtpConfig({ OTP_HASH_SECRET: SECRET }),
      logger: createLogger("otp-test", "silent"),
      now: clock.now,
    });
    client = createClient(OtpService, createGrpcTransport({ baseUrl: server.url }));
  });

  afterAll(() => server.close());

  it("generates, delivers into the development outbox, verifies once and reports the status", async () => {
    const generated = await client.generateOtp(
      { recipient: "09171234567", channel: OtpChannel.SMS, digits: 0, ttlSeconds: 0 },
      headers("prj_grpc", "grpc-key-000000000001"),
    );
    expect(generated).toMatchObject({ channel: OtpChannel.SMS, target: "+63*******4567", recipient: "+63*******4567" });
    expect(timestampDate(generated.expiresAt!).getTime()).toBe(clock.now().getTime() + 300_000);

    const { messages } = await client.listDevMessages({ recipient: "+639171234567" });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ otpId: generated.otpId, channel: OtpChannel.SMS, recipient: "+639171234567" });
    const code = /code is (\d{6})/.exec(messages[0]!.body)![1]!;

    const verified = await client.verifyOtp({ otpId: generated.otpId, code }, headers("prj_grpc", "grpc-key-000000000002"));
    expect(verified).toMatchObject({ verified: true, otpId: generated.otpId, target: "+63*******4567", channel: OtpChannel.SMS });
    const again = await client.verifyOtp({ otpId: generated.otpId, code }, headers("prj_grpc", "grpc-key-000000000003"));
    expect(again.verified).toBe(false);

    const status = await client.getOtpStatus({ otpId: generated.otpId }, headers("prj_grpc"));
    expect(status).toMatchObject({ otpId: generated.otpId, status: OtpStatus.VERIFIED, target: "+63*******4567" });
  });

  it("answers NOT_FOUND for another project's OTP and INVALID_ARGUMENT for a wrong-length code", async () => {
    const generated = await client.generateOtp(
      { recipient: "ana@example.ph", channel: OtpChannel.EMAIL, digits: 8, ttlSeconds: 120 },
      headers("prj_owner", "grpc-key-000000000004"),
    );
    expect(generated.target).toBe("a***@example.ph");
    await expect(client.getOtpStatus({ otpId: generated.otpId }, headers("prj_other"))).rejects.toMatchObject({ code: Code.NotFound });
    const wrongLength = await client
      .verifyOtp({ otpId: generated.otpId, code: "123456" }, headers("prj_owner", "grpc-key-000000000005"))
      .catch((error: unknown) => fromConnectError(error));
    expect(wrongLength).toMatchObject({ code: "VALIDATION_FAILED", details: ["code: must be 8 digits"] });
  });

  it("carries RATE_LIMITED with its Retry-After to the client", async () => {
    for (let i = 0; i < 5; i++) {
      await client.generateOtp(
        { recipient: "+639170001111", channel: OtpChannel.SMS, digits: 0, ttlSeconds: 0 },
        headers("prj_limits", `grpc-limit-key-00000${i}`),
      );
    }
    const refused = await client
      .generateOtp({ recipient: "+639170001111", channel: OtpChannel.SMS, digits: 0, ttlSeconds: 0 }, headers("prj_limits", "grpc-limit-key-000009"))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConnectError);
    expect((refused as ConnectError).code).toBe(Code.ResourceExhausted);
    expect(fromConnectError(refused)).toMatchObject({ code: "RATE_LIMITED", headers: { "Retry-After": "930" } });
  });

  it("refuses a mutation without an Idempotency-Key", async () => {
    const refused = await client
      .generateOtp({ recipient: "+639170002222", channel: OtpChannel.SMS, digits: 0, ttlSeconds: 0 }, headers("prj_grpc"))
      .catch((error: unknown) => fromConnectError(error));
    expect(refused).toMatchObject({ code: "IDEMPOTENCY_KEY_REQUIRED" });
  });
});

describe("ListDevMessages with real senders configured", () => {
  it("answers NOT_FOUND: the development outbox is off", async () => {
    const server = await startOtpServer({
      store: createTestStore(),
      config: readOtpConfig({
        OTP_HASH_SECRET: SECRET,
        OTP_EMAIL_SENDER: "smtp",
        SMTP_HOST: "127.0.0.1",
        SMTP_FROM: "no-reply@bayad.test",
        OTP_SMS_SENDER: "semaphore",
        SEMAPHORE_API_KEY: "k",
      }),
      logger: createLogger("otp-test", "silent"),
    });
    try {
      const client = createClient(OtpService, createGrpcTransport({ baseUrl: server.url }));
      const refused = await client.listDevMessages({ recipient: "+639171234567" }).catch((error: unknown) => fromConnectError(error));
      expect(refused).toMatchObject({ code: "RESOURCE_NOT_FOUND", message: "The development outbox is off." });
    } finally {
      await server.close();
    }
  });
});
