import { randomInt } from "node:crypto";
import { expect } from "vitest";
import type { TestPlatform } from "./harness.js";

export const otpPath = "/api/v1/shared/otp";

/** A message of the development outbox as the admin API lists it. */
export interface OutboxMessage {
  otpId: string;
  body: string;
  channel: string;
  locale: string;
  subject?: string;
}

interface CallOptions {
  /** Another credential than the project's OTP token. */
  credential?: string;
  idempotencyKey?: string;
}

/** A Philippine mobile number in `prefix` (default `+63917`) that no other test uses, so limits never interfere. */
export const newPhone = (prefix = "+63917") => `${prefix}${String(randomInt(1_000_000, 9_999_999))}`;
export const newEmail = (name = "juan") => `${name}.${randomInt(1_000_000)}@example.ph`;

/**
 * The OTP calls of a test through the gateway, with a service token of the platform's project
 * holding every OTP scope (issued at the first call), and the development outbox as operators
 * read it. `platform` is read at each call, so a test file can make these at load time and start
 * its platform in beforeAll.
 */
export function otpCalls(platform: () => TestPlatform) {
  let issued: Promise<string> | undefined;
  const token = () => (issued ??= platform().serviceToken(platform().platform.projectId, ["otp:generate", "otp:verify", "otp:read"]));
  const as = async (options: CallOptions) => ({ credential: options.credential ?? (await token()), idempotencyKey: options.idempotencyKey });
  return {
    /** The project's OTP service token. */
    token,
    generate: async (body: Record<string, unknown>, options: CallOptions = {}) =>
      platform().request("POST", `${otpPath}/generate`, { body, ...(await as(options)) }),
    verify: async (otpId: string, code: string, options: CallOptions = {}) =>
      platform().request("POST", `${otpPath}/verify`, { body: { otpId, code }, ...(await as(options)) }),
    status: async (otpId: string, credential?: string) => platform().request("GET", `${otpPath}/status/${otpId}`, { credential: credential ?? (await token()) }),
    /** What the development outbox holds for `recipient` (any spelling), newest first. */
    async outbox(recipient: string): Promise<OutboxMessage[]> {
      const response = await platform().request("GET", `/admin/v1/otp/messages?recipient=${encodeURIComponent(recipient)}`, {
        credential: platform().platform.adminApiKey,
      });
      expect(response.status).toBe(200);
      return response.body.data as OutboxMessage[];
    },
  };
}
