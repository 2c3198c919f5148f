/**
 * A small seeded generator (mulberry32), so that a crash run's choices (what to send, when to
 * kill) come again from its seed. The order in which concurrent answers arrive is the machine's.
 */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    /** An integer in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability: number) => next() < probability,
    /** One of `items` (which must not be empty). */
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

export type SeededRandom = ReturnType<typeof seededRandom>;

/** CRASH_SEED when set (to replay a run), else a fresh one. */
export function crashSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.CRASH_SEED;
  if (given !== undefined && given !== "") {
    const seed = Number(given);
    if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`CRASH_SEED must be a non-negative integer, not ${given}`);
    return seed;
  }
  return Math.floor(Math.random() * 2 ** 31);
}
