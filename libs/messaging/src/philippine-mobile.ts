/**
 * Semaphore delivers to Philippine mobile numbers only and takes them in the local 11-digit
 * form `09XXXXXXXXX` (the form its documentation's examples use; it does not take `+63…`).
 * Accepts `+639XXXXXXXXX`, `639XXXXXXXXX` and `09XXXXXXXXX` (spaces, dashes and brackets
 * ignored); anything else is not a number Semaphore can reach, so null.
 */
export function toSemaphoreNumber(recipient: string): string | null {
  const compact = recipient.trim().replace(/[\s().-]/g, "");
  const match = /^(?:\+63|63|0)(9\d{9})$/.exec(compact);
  return match ? `0${match[1]}` : null;
}
