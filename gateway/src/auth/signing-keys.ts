import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";
import { resealCollection, sealText, type ResealCounts, type SealingKeys } from "@bayad/kit";
import { isDuplicateKeyError, type CollectionDef, type Store } from "@bayad/store";

/**
 * The development token issuer's signing keys, one store-held record that every gateway replica
 * reads. The newest key signs; the ones it replaced stay published (public half only) until the
 * longest-lived token they may have signed has expired. Private keys are kept sealed
 * (AES-256-GCM under GATEWAY_SECRET), and only the signing key keeps its private half at all.
 *
 * Every change is a versioned write (`version` must still be the one read), so replicas that
 * decide to rotate at the same moment cannot each install a different signing key: one write
 * wins and the others adopt its result.
 */

export const signingKeysCollection: CollectionDef = { name: "signing_keys" };

/** The only record of the collection. */
const recordId = "dev-issuer";
export const signingAlgorithm = "ES256";
/** The purpose sealed private keys are bound to (kit's sealText); the kid is their context. */
export const sealingPurpose = "dev-token-signing-key";

export interface SigningKey {
  kid: string;
  publicJwk: JWK;
  /** The private JWK sealed under GATEWAY_SECRET; only the signing key (the first) has one. */
  sealedPrivateJwk?: string;
  createdAt: Date;
  /** When it stopped signing; absent on the signing key. */
  retiredAt?: Date;
}

export interface SigningKeySet {
  _id: string;
  version: number;
  /** Newest first: `keys[0]` signs. */
  keys: SigningKey[];
}

/** The record as it was before keys were sealed and rotated: one key, its private half in clear. */
interface LegacySigningKey {
  _id: string;
  version?: undefined;
  kid: string;
  publicJwk: JWK;
  createdAt: Date;
}

export interface SigningKeyStoreOptions {
  /** The GATEWAY_SECRETS ring: its newest key seals the private keys. */
  secret: SealingKeys;
  /** How long a retired key stays published: the longest lifetime of a token it may have signed. */
  retentionMs: number;
  now: () => Date;
}

export interface SigningKeyStore {
  /** The stored set, created (or converted from the legacy record) when there is none. */
  load(): Promise<SigningKeySet>;
  /**
   * Replaces the signing key of `from` (the set as last read) with a new one. When another
   * replica changed the set since, its set is returned instead and nothing is written.
   */
  rotate(from: SigningKeySet): Promise<SigningKeySet>;
}

/**
 * Seals the stored private keys again under the ring's newest key (bayad secrets reseal), whether
 * or not the development issuer is on. The set's version stays: which key signs does not change.
 */
export function resealSigningKeys(store: Store, keys: SealingKeys): Promise<ResealCounts> {
  return resealCollection(store.collection<SigningKeySet | LegacySigningKey>(signingKeysCollection), keys, (set) =>
    "keys" in set
      ? set.keys.flatMap((key, index) =>
          key.sealedPrivateJwk === undefined ? [] : [{ path: `keys.${index}.sealedPrivateJwk`, purpose: sealingPurpose, context: key.kid, sealed: key.sealedPrivateJwk }],
        )
      : [],
  );
}

export function createSigningKeyStore(store: Store, options: SigningKeyStoreOptions): SigningKeyStore {
  const records = store.collection<SigningKeySet | LegacySigningKey>(signingKeysCollection);

  async function newKey(createdAt: Date): Promise<SigningKey> {
    const pair = await generateKeyPair(signingAlgorithm, { extractable: true });
    const publicJwk = await exportJWK(pair.publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    const privateJwk = await exportJWK(pair.privateKey);
    return {
      kid,
      publicJwk,
      sealedPrivateJwk: sealText(options.secret, sealingPurpose, kid, JSON.stringify(privateJwk)),
      createdAt,
    };
  }

  /** `keys` with the signing key retired and the keys whose tokens have all expired dropped. */
  function retireAll(keys: readonly SigningKey[], at: Date): SigningKey[] {
    return keys
      .map(({ sealedPrivateJwk: _dropped, ...key }) => ({ ...key, retiredAt: key.retiredAt ?? at }))
      .filter((key) => key.retiredAt.getTime() + options.retentionMs > at.getTime());
  }

  async function read(): Promise<SigningKeySet | LegacySigningKey | null> {
    return records.findOne({ _id: recordId });
  }

  async function load(): Promise<SigningKeySet> {
    const found = await read();
    if (found && found.version !== undefined) return found;
    const now = options.now();
    if (found) {
      // The legacy record held its private key in clear: it is replaced (in the same write that
      // removes the clear fields) by a sealed new key, and its public half stays published
      // until its tokens expire.
      const legacy = found;
      const keys = [await newKey(now), ...retireAll([{ kid: legacy.kid, publicJwk: legacy.publicJwk, createdAt: legacy.createdAt }], now)];
      await records.findOneAndUpdate(
        { _id: recordId, version: { $exists: false } },
        { $set: { version: 1, keys }, $unset: { kid: true, publicJwk: true, privateJwk: true, createdAt: true } },
      );
      return load();
    }
    const created: SigningKeySet = { _id: recordId, version: 1, keys: [await newKey(now)] };
    try {
      await records.insertOne(created);
      return created;
    } catch (error) {
      // Replicas starting together: exactly one insert wins and the others read it.
      if (!isDuplicateKeyError(error)) throw error;
      return load();
    }
  }

  return {
    load,
    async rotate(from) {
      const now = options.now();
      const keys = [await newKey(now), ...retireAll(from.keys, now)];
      const written = await records.findOneAndUpdate(
        { _id: recordId, version: from.version },
        { $set: { version: from.version + 1, keys } },
      );
      return (written as SigningKeySet | null) ?? load();
    },
  };
}
