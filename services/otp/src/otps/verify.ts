import { AppError, notFound, pauseAfterLostRace, type CallerContext } from "@bayad/kit";
import { codeMatches, idempotencyKeyDigest } from "../codes/code-hash.js";
import { verifyCharges } from "./limit-charges.js";
import type { OtpDeps } from "./otp-deps.js";
import { MAX_WRONG_ATTEMPTS, statusAt, type OtpRecord } from "./otp.js";

export interface VerifyOtpResult {
  record: OtpRecord;
  verified: boolean;
}

/**
 * Checks a submitted code. Answers verified: true once, for the correct code of a pending,
 * unexpired code; every other case answers false (wrong, expired, locked, used, undelivered
 * are not told apart here; getOtpStatus tells which).
 *
 * Each wrong code on a pending code counts; the 5th locks it. Against brute force the code
 * thus admits at most 5 evaluated guesses in its life, and the per-otpId rate limit spaces
 * them. A retried request (same Idempotency-Key) gets the answer recorded for it without
 * counting again.
 */
export async function verifyOtp(
  deps: OtpDeps,
  caller: CallerContext & { idempotencyKey: string },
  input: { otpId: string; code: string },
): Promise<VerifyOtpResult> {
  let record = await deps.repository.findById(caller, input.otpId);
  if (!record) throw notFound("otp", input.otpId);
  if (!/^\d+$/.test(input.code) || input.code.length !== record.digits) {
    throw new AppError("VALIDATION_FAILED", "The code has the wrong format.", {
      details: [`code: must be ${record.digits} digits`],
    });
  }
  const requestDigest = idempotencyKeyDigest(caller.idempotencyKey);
  const recorded = record.verifications[requestDigest];
  if (recorded !== undefined) return { record, verified: recorded };

  await deps.limiter.charge(verifyCharges(deps.limits, caller, record));

  const correct = codeMatches(deps.secret, record._id, input.code, record.codeHash);
  // Optimistic loop: each turn either writes, or finds the code changed by a concurrent
  // request and decides again from the fresh state. Every lost turn means another request
  // made progress, and a code changes at most MAX_WRONG_ATTEMPTS + 1 times.
  for (let turn = 0; turn < 2 * (MAX_WRONG_ATTEMPTS + 2); turn++) {
    const now = deps.now();
    const again = record.verifications[requestDigest];
    if (again !== undefined) return { record, verified: again };
    if (!openToVerification(record, now)) return { record, verified: false };

    const updated = correct
      ? await deps.repository.markVerified(record._id, requestDigest, now)
      : await deps.repository.recordWrongAttempt(record._id, requestDigest, record.attempts, now);
    if (updated) {
      deps.logger.info(
        { otpId: record._id, verified: correct, attempts: updated.attempts, state: updated.state },
        correct ? "otp verified" : "otp wrong code",
      );
      if (correct) await deps.fraud.verified(updated);
      return { record: updated, verified: correct };
    }
    await pauseAfterLostRace(turn + 1);
    const fresh = await deps.repository.findById(caller, record._id);
    if (!fresh) throw notFound("otp", input.otpId);
    record = fresh;
  }
  throw new AppError("IDEMPOTENCY_KEY_IN_PROGRESS", "The code is being verified by concurrent requests; retry.");
}

/** Pending (delivered or possibly delivered, unexpired) with guesses left: as the repository's conditional writes require. */
function openToVerification(record: OtpRecord, now: Date): boolean {
  return statusAt(record, now) === "pending" && record.attempts < MAX_WRONG_ATTEMPTS;
}
