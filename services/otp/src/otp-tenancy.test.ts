import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { OtpChannel, OtpService } from "@bayad/proto";
import { callerHeaders, createLogger, fromConnectError, type RunningServer } from "@bayad/kit";
import { readOtpConfig } from "./config.js";
import { startOtpServer } from "./server.js";
import { createClock } from "./test-support/otp-harness.js";
import { createTestStore } from "@bayad/store/testing";

/**
 * Per-recipient limits count per project and environment: one project's sends or guesses at a
 * number never lock another project's user of that number out. Over a real gRPC transport, with
 * small limits so that a project reaches them quickly.
 */
describe("OTP per-recipient limits, per project and environment (gRPC)", () => {
  const clock = createClock();
  let server: RunningServer;
  let client: Client<typeof OtpService>;
  let keys = 0;

  const as = (projectId: string, environment: "test" | "live" = "test") => ({
    headers: callerHeaders({ projectId, environment, correlationId: "tenancy-test", idempotencyKey: `tenancy-key-${String(++keys).padStart(8, "0")}` }),
  });
  const generate = (projectId: string, recipient: string, environment: "test" | "live" = "test") =>
    client.generateOtp({ recipient, channel: OtpChannel.SMS, digits: 0, ttlSeconds: 0 }, as(projectId, environment));
  const verify = (projectId: string, otpId: string, code: string) => client.verifyOtp({ otpId, code }, as(projectId));
  const refusal = (call: Promise<unknown>) => call.then(() => undefined, (error: unknown) => fromConnectError(error));
  /** The code of `otpId` as the development outbox holds it. */
  async function codeOf(recipient: string, otpId: string): Promise<string> {
    const { messages } = await client.listDevMessages({ recipient });
    const body = messages.find((message) => message.otpId === otpId)?.body ?? "";
    const code = /code is (\d{6})/.exec(body)?.[1];
    if (!code) throw new Error(`no code for ${otpId}`);
    return code;
  }
  const wrong = (code: string) => (code === "000000" ? "000001" : "000000");

  beforeAll(async () => {
    server = await startOtpServer({
      store: createTestStore(),
      config: readOtpConfig({
        OTP_HASH_SECRET: "tenancy-test-secret-tenancy-test-secret-01",
        OTP_GENERATE_RECIPIENT_LIMIT: "2",
        OTP_GENERATE_RECIPIENT_CEILING: "5",
        OTP_VERIFY_RECIPIENT_LIMIT: "3",
      }),
      logger: createLogger("otp-test", "silent"),
      now: clock.now,
    });
    client = createClient(OtpService, createGrpcTransport({ baseUrl: server.url }));
  });

  afterAll(() => server.close());

  it("project B using up its codes for a number leaves project A able to send to and verify it", async () => {
    const number = "+639170000101";
    await generate("prj_b", number);
    await generate("prj_b", number);
    expect(await refusal(generate("prj_b", number))).toMatchObject({ code: "RATE_LIMITED" });

    const theirs = await generate("prj_a", number);
    expect((await verify("prj_a", theirs.otpId, await codeOf(number, theirs.otpId))).verified).toBe(true);
    // B's other environment is a tenant of its own too.
    await generate("prj_b", number, "live");
  });

  it("project B guessing against a number leaves project A able to verify it", async () => {
    const number = "+639170000202";
    const guessed = await generate("prj_b", number);
    const guess = wrong(await codeOf(number, guessed.otpId));
    for (let i = 0; i < 3; i++) expect((await verify("prj_b", guessed.otpId, guess)).verified).toBe(false);
    expect(await refusal(verify("prj_b", guessed.otpId, guess))).toMatchObject({ code: "RATE_LIMITED" });

    const theirs = await generate("prj_a", number);
    expect((await verify("prj_a", theirs.otpId, await codeOf(number, theirs.otpId))).verified).toBe(true);
  });

  it("keeps a ceiling per recipient across all projects, above any one project's limit", async () => {
    const number = "+639170000303";
    for (const projectId of ["prj_c", "prj_d"]) {
      await generate(projectId, number);
      await generate(projectId, number);
    }
    await generate("prj_e", number);
    // Five codes to one number from three projects, none of them at its own limit: the ceiling holds.
    expect(await refusal(generate("prj_e", number))).toMatchObject({ code: "RATE_LIMITED" });
    const { messages } = await client.listDevMessages({ recipient: number });
    expect(messages).toHaveLength(5);
  });
});
