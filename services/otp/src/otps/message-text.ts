/**
 * The text of a code's message. The subject never holds the code (subjects show up in
 * notification previews and mail logs); the body is the one place it appears. The body
 * starts with "Your", never with "TEST": Semaphore silently drops messages that start so.
 */
export function composeMessage(code: string, ttlSeconds: number): { subject: string; body: string } {
  return {
    subject: "Your Bayad verification code",
    body: `Your Bayad code is ${code}. It expires in ${describeDuration(ttlSeconds)}. Never share it.`,
  };
}

function describeDuration(seconds: number): string {
  if (seconds % 60 !== 0) return `${seconds} seconds`;
  const minutes = seconds / 60;
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}
