/**
 * Polls `check` until it stops throwing (or returns true), then resolves with its value; throws the
 * last failure after a generous deadline. Tests wait for state this way, never by sleeping.
 */
export async function eventually<T>(check: () => T | Promise<T>, deadlineMs = 20_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    let failure: unknown;
    try {
      const value = await check();
      if (value !== false) return value;
      failure = new Error("condition still false");
    } catch (error) {
      failure = error;
    }
    if (Date.now() > deadline) throw failure;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
