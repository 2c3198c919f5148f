import type { CallerContext, RateLimitCharge } from "@bayad/kit";
import type { OtpLimits } from "../config.js";
import type { OtpRecord } from "./otp.js";

/*
 * What each OTP operation is counted against. Everything a project does is counted within its
 * project and environment (the tenant), so that one project's sends or guesses never use up a
 * limit that another project's user of the same recipient needs. Only the ceilings count a
 * recipient across all projects, against many projects at one number or address; they sit far
 * above one project's limit (config.ts).
 */

type Tenant = Pick<CallerContext, "projectId" | "environment">;

const tenantKey = (caller: Tenant) => `${caller.projectId}:${caller.environment}`;

/** Generating a code for the recipient whose keyed hash is `recipientHash`. */
export function generateCharges(limits: OtpLimits, caller: Tenant, recipientHash: string): RateLimitCharge[] {
  return [
    { scope: "generate-caller", setting: limits.generatePerCaller, key: tenantKey(caller) },
    { scope: "generate-recipient", setting: limits.generatePerRecipient, key: `${tenantKey(caller)}:${recipientHash}` },
    { scope: "generate-recipient-ceiling", setting: limits.generateRecipientCeiling, key: recipientHash },
  ];
}

/** Verifying a code of `record` (which is the caller's: another project's is a 404 before this). */
export function verifyCharges(limits: OtpLimits, caller: Tenant, record: Pick<OtpRecord, "_id" | "recipientHash">): RateLimitCharge[] {
  return [
    { scope: "verify-otp", setting: limits.verifyPerOtp, key: record._id },
    { scope: "verify-recipient", setting: limits.verifyPerRecipient, key: `${tenantKey(caller)}:${record.recipientHash}` },
    { scope: "verify-recipient-ceiling", setting: limits.verifyRecipientCeiling, key: record.recipientHash },
    { scope: "verify-caller", setting: limits.verifyPerCaller, key: tenantKey(caller) },
  ];
}
