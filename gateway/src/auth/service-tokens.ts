import { randomUUID } from "node:crypto";
import { SignJWT, importJWK, type CryptoKey, type JWK } from "jose";
import { AppError, isEnvironment, openSealed, type Environment, type Logger, type SealingKeys } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { allScopes, knownScopes } from "./caller.js";
import { createSigningKeyStore, sealingPurpose, signingAlgorithm, type SigningKeySet } from "./signing-keys.js";

export { signingKeysCollection } from "./signing-keys.js";

/**
 * The platform's development token issuer: it mints service access tokens so the OTP API can be
 * used without an external identity provider. Production deployments may instead trust an
 * external issuer's JWKS; the credential verifier treats both the same way.
 *
 * Its signing key rotates every `rotationMs` (and when an operator asks); tokens name their key
 * in `kid`, and the JWKS keeps a replaced key until every token it may have signed has expired.
 * The keys live in the store (signing-keys.ts), sealed, so every gateway replica signs and
 * verifies alike.
 */

/** The bounds of ServiceTokenCreateRequest.ttlSeconds in the OpenAPI document. */
const minTtlSeconds = 60;
export const maxTtlSeconds = 86_400;
const maxSubjectLength = 255;
/** How often a replica reads the key set again (rotations made elsewhere, a rotation due). */
const defaultRefreshIntervalMs = 60_000;
/** The least time between two store reads caused by tokens naming a key this replica does not know. */
const unknownKidCooldownMs = 250;

export interface IssueServiceTokenRequest {
  projectId: string;
  environment: Environment;
  subject: string;
  scopes: readonly string[];
  ttlSeconds: number;
}

export interface IssuedServiceToken {
  accessToken: string;
  expiresAt: Date;
}

/** What an operator sees of a signing key: never its private half. */
export interface SigningKeySummary {
  kid: string;
  createdAt: string;
  /** When it stopped signing; absent on the signing key. */
  retiredAt?: string;
  /** When it leaves the JWKS (its last tokens have expired); absent on the signing key. */
  publishedUntil?: string;
}

export interface DevTokenIssuer {
  issue(request: IssueServiceTokenRequest): Promise<IssuedServiceToken>;
  /** The public halves only: what verifiers (ours or a consumer's) need to check signatures. */
  jwks(): { keys: JWK[] };
  /**
   * Reads the key set again, for a token naming a key this replica has not seen (another replica
   * rotated); at most once per 250 ms, however many such tokens arrive.
   */
  refresh(): Promise<void>;
  /** Replaces the signing key now; resolves with the keys published afterwards, signing key first. */
  rotate(): Promise<SigningKeySummary[]>;
  /** Stops the periodic refresh. */
  close(): void;
}

export interface DevTokenIssuerOptions {
  issuer: string;
  audience: string;
  /** The GATEWAY_SECRETS ring: the private keys are stored sealed under its newest key. */
  secret: SealingKeys;
  /** How long a key signs before it is replaced. */
  rotationMs: number;
  logger?: Logger;
  /** The clock; tests move it to mint expired tokens and to see keys rotate and retire. */
  now?: () => Date;
  refreshIntervalMs?: number;
}

interface Signer {
  kid: string;
  privateKey: CryptoKey;
}

/** The key set as this replica last read it, with what it derived from it. */
interface Current {
  set: SigningKeySet;
  /** Absent when the signing key was sealed under another GATEWAY_SECRET. */
  signer?: Signer;
  /** One frozen object until the published keys change, so the verifier keeps its imported keys. */
  published: { keys: JWK[] };
  /** When the next retired key leaves the JWKS. */
  nextRetirementAt: number;
}

export async function createDevTokenIssuer(store: Store, options: DevTokenIssuerOptions): Promise<DevTokenIssuer> {
  const now = options.now ?? (() => new Date());
  const retentionMs = maxTtlSeconds * 1000;
  const keyStore = createSigningKeyStore(store, { secret: options.secret, retentionMs, now });

  async function derive(set: SigningKeySet): Promise<Current> {
    const signing = set.keys[0];
    let signer: Signer | undefined;
    if (signing?.sealedPrivateJwk) {
      try {
        const jwk = JSON.parse(openSealed(options.secret, sealingPurpose, signing.kid, signing.sealedPrivateJwk)) as JWK;
        const key = await importJWK(jwk, signingAlgorithm);
        if (!(key instanceof Uint8Array)) signer = { kid: signing.kid, privateKey: key };
      } catch (error) {
        options.logger?.error(
          { err: error, kid: signing.kid },
          "the development token issuer's signing key does not open with this GATEWAY_SECRET (do all replicas share it?)",
        );
      }
    }
    return { set, signer, ...publishedAt(set, now().getTime()) };
  }

  function publishedAt(set: SigningKeySet, at: number): Pick<Current, "published" | "nextRetirementAt"> {
    let nextRetirementAt = Number.POSITIVE_INFINITY;
    const keys: JWK[] = [];
    for (const key of set.keys) {
      const until = key.retiredAt ? key.retiredAt.getTime() + retentionMs : Number.POSITIVE_INFINITY;
      if (until <= at) continue;
      nextRetirementAt = Math.min(nextRetirementAt, until);
      keys.push(Object.freeze({ ...key.publicJwk, kid: key.kid, alg: signingAlgorithm, use: "sig" }));
    }
    return { published: Object.freeze({ keys: Object.freeze(keys) }) as { keys: JWK[] }, nextRetirementAt };
  }

  const rotationDue = (set: SigningKeySet) =>
    !set.keys[0] || set.keys[0].createdAt.getTime() + options.rotationMs <= now().getTime();

  let current = await derive(await keyStore.load());
  if (!current.signer) {
    // Sealed under another secret (GATEWAY_SECRET was changed): a key this replica can use
    // replaces it, and the old one stays published until its tokens expire.
    current = await derive(await keyStore.rotate(current.set));
  }

  /** Adopts the stored set when it differs from the one in hand; rotates when it is due. */
  async function sync(): Promise<void> {
    let set = await keyStore.load();
    if (rotationDue(set)) set = await keyStore.rotate(set);
    if (set.version !== current.set.version) current = await derive(set);
  }

  let lastUnknownKidRefresh = 0;
  let refreshing: Promise<void> | undefined;
  const timer = setInterval(() => {
    sync().catch((error: unknown) => options.logger?.warn({ err: error }, "could not refresh the development token issuer's keys"));
  }, options.refreshIntervalMs ?? defaultRefreshIntervalMs);
  timer.unref();

  return {
    async issue(request) {
      const scopes = validateRequest(request);
      // One store read per token (an admin call, not on the request path): every replica signs
      // with the key the store names, so tokens minted anywhere right after a rotation agree.
      await sync();
      const signer = current.signer;
      if (!signer) {
        throw new AppError(
          "SERVICE_UNAVAILABLE",
          "The development token issuer's signing key was sealed under another GATEWAY_SECRET; rotate it (bayad signing-keys rotate).",
        );
      }
      const issuedAt = Math.floor(now().getTime() / 1000);
      const expiresAt = issuedAt + request.ttlSeconds;
      const accessToken = await new SignJWT({
        scope: scopes.join(" "),
        project_id: request.projectId,
        environment: request.environment,
      })
        .setProtectedHeader({ alg: signingAlgorithm, kid: signer.kid })
        .setIssuer(options.issuer)
        .setAudience(options.audience)
        .setSubject(request.subject)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .setJti(randomUUID())
        .sign(signer.privateKey);
      return { accessToken, expiresAt: new Date(expiresAt * 1000) };
    },

    jwks() {
      const at = now().getTime();
      if (at >= current.nextRetirementAt) current = { ...current, ...publishedAt(current.set, at) };
      return current.published;
    },

    refresh() {
      if (refreshing) return refreshing;
      if (Date.now() - lastUnknownKidRefresh < unknownKidCooldownMs) return Promise.resolve();
      lastUnknownKidRefresh = Date.now();
      refreshing = sync().finally(() => {
        refreshing = undefined;
      });
      return refreshing;
    },

    async rotate() {
      current = await derive(await keyStore.rotate(await keyStore.load()));
      const at = now().getTime();
      return current.set.keys
        .filter((key) => !key.retiredAt || key.retiredAt.getTime() + retentionMs > at)
        .map((key) => ({
          kid: key.kid,
          createdAt: key.createdAt.toISOString(),
          ...(key.retiredAt
            ? {
                retiredAt: key.retiredAt.toISOString(),
                publishedUntil: new Date(key.retiredAt.getTime() + retentionMs).toISOString(),
              }
            : {}),
        }));
    },

    close() {
      clearInterval(timer);
    },
  };
}

/** Returns the de-duplicated scopes; throws VALIDATION_FAILED naming every bad field. */
function validateRequest(request: IssueServiceTokenRequest): string[] {
  const details: string[] = [];
  if (typeof request.projectId !== "string" || request.projectId.length === 0) {
    details.push("projectId is required");
  }
  if (!isEnvironment(request.environment)) {
    details.push("environment must be one of: test, live");
  }
  if (
    typeof request.subject !== "string" ||
    request.subject.trim().length === 0 ||
    request.subject.length > maxSubjectLength
  ) {
    details.push(`subject must be 1 to ${maxSubjectLength} characters`);
  }
  const scopes: unknown[] = Array.isArray(request.scopes) ? [...new Set<unknown>(request.scopes)] : [];
  // A token without scopes can do nothing, so asking for one is almost certainly a mistake.
  if (scopes.length === 0) details.push(`scopes must hold at least one of: ${allScopes.join(", ")}`);
  for (const scope of scopes) {
    if (typeof scope !== "string" || !knownScopes.has(scope)) details.push(`scopes: "${String(scope)}" is not a known scope`);
  }
  if (
    !Number.isInteger(request.ttlSeconds) ||
    request.ttlSeconds < minTtlSeconds ||
    request.ttlSeconds > maxTtlSeconds
  ) {
    details.push(`ttlSeconds must be an integer from ${minTtlSeconds} to ${maxTtlSeconds}`);
  }
  if (details.length > 0) throw new AppError("VALIDATION_FAILED", undefined, { details });
  // Every scope is a known one by now.
  return scopes as string[];
}
