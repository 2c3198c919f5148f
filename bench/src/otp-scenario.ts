import { generateOtp, issueOtpToken, readOtpCode } from "./api-client.js";
import type { PlatformHandle } from "./platform-handle.js";
import { measureScenario, type Row } from "./row.js";
import type { LoadSettings } from "./run-autocannon.js";
import { freshValue, verifyWrongCodes } from "./scenarios.js";

/** A Philippine mobile number in the form the OpenAPI document's example uses. */
const recipient = "+639171234567";

/**
 * Scenario 6: one code sent through the API (to the development outbox), then verified with a
 * code that is certainly wrong: the real one is read from the outbox and changed, so no request
 * of the run can verify it by chance.
 */
export async function runOtpScenario(platform: PlatformHandle, load: LoadSettings): Promise<Row> {
  const token = await issueOtpToken(platform);
  const otpId = await generateOtp(platform, token, recipient, freshValue("otp-key"));
  const code = await readOtpCode(platform, recipient, otpId);
  const wrongCode = String((Number(code) + 1) % 10 ** code.length).padStart(code.length, "0");
  return measureScenario(platform.gatewayUrl, verifyWrongCodes(token, otpId, wrongCode), load, platform.cpuMeter);
}
