/**
 * A key ring: the keys a process holds for one secret setting (SECRETS_KEYS, GATEWAY_SECRETS,
 * OTP_HASH_SECRETS), oldest first. The last key seals; any key opens what names its id, so a
 * key can be added, everything resealed under it, and the old one removed, without a moment
 * where a stored value cannot be opened. The first key keys the digests (HMAC) that must stay
 * the same across a rotation: lookups by an API key's digest, record ids.
 */
export interface KeyRing {
  readonly keys: readonly RingKey[];
}

/** One key of a ring: its id is written into every value it seals. */
export interface RingKey {
  readonly id: string;
  readonly key: string;
}

/**
 * The id of the key a single-key setting (SECRETS_KEY, GATEWAY_SECRET, OTP_HASH_SECRET) stands
 * for, and the key that opens values sealed before sealed values carried a key id (format v1).
 */
export const LEGACY_KEY_ID = "legacy";

const keyIdPattern = /^[a-z0-9-]{1,16}$/;

/** The ring of one key that a single-key setting stands for. */
export function singleKeyRing(key: string): KeyRing {
  return { keys: [{ id: LEGACY_KEY_ID, key }] };
}

/** The key that seals: the newest, the ring's last. */
export function sealingKeyOf(ring: KeyRing): RingKey {
  return ring.keys[ring.keys.length - 1];
}

/** The key digests are keyed with: the ring's first, which a rotation keeps in place. */
export function digestKeyOf(ring: KeyRing): string {
  return ring.keys[0].key;
}

/**
 * Reads `<id>:<key>,<id>:<key>,…` (oldest first). Throws an Error whose message says what is
 * wrong without repeating any key.
 */
export function parseKeyRing(text: string, minLength: number): KeyRing {
  const keys: RingKey[] = [];
  for (const [position, entry] of text.split(",").map((part) => part.trim()).entries()) {
    const colon = entry.indexOf(":");
    const id = colon < 0 ? "" : entry.slice(0, colon);
    const key = colon < 0 ? "" : entry.slice(colon + 1);
    if (!keyIdPattern.test(id)) throw new Error(`entry ${position + 1} must be <id>:<key>, the id 1 to 16 of a-z, 0-9 and -`);
    if (key.length < minLength) throw new Error(`key "${id}" must be at least ${minLength} characters`);
    if (keys.some((known) => known.id === id)) throw new Error(`names key "${id}" twice`);
    keys.push({ id, key });
  }
  return { keys };
}
