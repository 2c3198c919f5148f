import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InThreadPlatform } from "@bayad/platform";
import { Bayad, BayadError } from "./index.js";
import { startTestPlatform, unique } from "./test-support/platform.js";

/** The SDK's OTP calls against the platform, with a service token as a signup service holds one. */
describe("@bayad/sdk otp", () => {
  let platform: InThreadPlatform;
  let otp: Bayad["otp"];

  beforeAll(async () => {
    platform = await startTestPlatform();
    const response = await fetch(`${platform.gatewayUrl}/admin/v1/service-tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${platform.adminApiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ projectId: platform.projectId, environment: "test", subject: "signup-service", scopes: ["otp:generate", "otp:verify", "otp:read"] }),
    });
    const { data } = (await response.json()) as { data: { accessToken: string } };
    otp = new Bayad({ apiKey: data.accessToken, baseUrl: platform.gatewayUrl }).otp;
  });
  afterAll(() => platform?.close());

  it("falls back to e-mail when the SMS is refused, and reads which channel carried the code", async () => {
    const email = `${unique("juan")}@example.ph`;
    const sent = await otp.generate({
      channels: [
        { channel: "sms", recipient: "+63 2 8123 4567" },
        { channel: "email", recipient: email },
      ],
      locale: "fil",
      clientIp: "203.0.113.7",
    });
    expect(sent.channel).toBe("email");
    expect(sent.channels.map((entry) => [entry.channel, entry.outcome, entry.reason])).toEqual([
      ["sms", "refused", "a landline cannot receive SMS"],
      ["email", "sent", undefined],
    ]);
    const status = await otp.getStatus(sent.otpId);
    expect(status).toMatchObject({ status: "pending", channel: "email", channels: sent.channels });
  });

  it("throws the first entry's error, naming every entry, when no channel may carry the code", async () => {
    const failure = await otp
      .generate({ channels: [{ channel: "sms", recipient: "+6591234567" }, { channel: "sms", recipient: "+63 2 8123 4567" }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BayadError);
    expect(failure).toMatchObject({ code: "SMS_COUNTRY_NOT_ALLOWED", status: 422 });
    expect((failure as BayadError).details).toEqual([
      expect.stringMatching(/^channels\[0\]\.recipient: sms refused: a number of SG/),
      "channels[1].recipient: sms refused: a landline cannot receive SMS",
    ]);
  });
});
