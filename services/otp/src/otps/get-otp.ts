import { notFound, type CallerContext } from "@bayad/kit";
import type { OtpDeps } from "./otp-deps.js";
import type { OtpRecord } from "./otp.js";

/** An OTP of the caller's project and environment; another project's is as unknown as none. */
export async function getOtp(deps: OtpDeps, caller: CallerContext, otpId: string): Promise<OtpRecord> {
  const record = await deps.repository.findById(caller, otpId);
  if (!record) throw notFound("otp", otpId);
  return record;
}
