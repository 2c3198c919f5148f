import { randomUUID } from "node:crypto";
import {
  SignJWT,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
} from "jose";
import { AppError, isEnvironment, type Environment } from "@bayad/kit";
import { isDuplicateKeyError, type Collection, type CollectionDef, type Store } from "@bayad/store";
import { allScopes, knownScopes } from "./caller.js";

/**
 * The platform's development token issuer: it mints service access tokens so the OTP API can be
 * used without an external identity provider. Production deployments may instead trust an
 * external issuer's JWKS; the credential verifier treats both the same way.
 */

interface SigningKeyDoc {
  _id: string;
  kid: string;
  /**
   * Kept in the store, not in process memory or config, so every gateway replica signs with the
   * same key and a token minted by one verifies on all. Acceptable for a development issuer;
   * a production issuer keeps its private key in its own KMS.
   */
  privateJwk: JWK;
  publicJwk: JWK;
  createdAt: Date;
}

export const signingKeysCollection: CollectionDef = { name: "signing_keys" };

const signingKeyId = "dev-issuer";
const algorithm = "ES256";
/** The bounds of ServiceTokenCreateRequest.ttlSeconds in the OpenAPI document. */
const minTtlSeconds = 60;
const maxTtlSeconds = 86_400;
const maxSubjectLength = 255;

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

export interface DevTokenIssuer {
  issue(request: IssueServiceTokenRequest): Promise<IssuedServiceToken>;
  /** The public half only: what verifiers (ours or a consumer's) need to check signatures. */
  jwks(): { keys: JWK[] };
}

export interface DevTokenIssuerOptions {
  issuer: string;
  audience: string;
  /** The clock; tests move it to mint already-expired tokens. */
  now?: () => Date;
}

export async function createDevTokenIssuer(
  store: Store,
  options: DevTokenIssuerOptions,
): Promise<DevTokenIssuer> {
  const keys = store.collection<SigningKeyDoc>(signingKeysCollection);
  const stored = await loadOrCreateSigningKey(keys);
  const imported = await importJWK(stored.privateJwk, algorithm);
  if (!isCryptoKey(imported)) throw new TypeError("the stored dev-issuer key is not an EC private key");
  const privateKey = imported;
  const now = options.now ?? (() => new Date());
  // One frozen object for the process's lifetime: the verifier can tell by identity that the
  // key set has not changed and keep its imported keys.
  const publicSet = Object.freeze({
    keys: [Object.freeze({ ...stored.publicJwk, kid: stored.kid, alg: algorithm, use: "sig" })],
  }) as { keys: JWK[] };

  return {
    async issue(request) {
      const scopes = validateRequest(request);
      const issuedAt = Math.floor(now().getTime() / 1000);
      const expiresAt = issuedAt + request.ttlSeconds;
      const accessToken = await new SignJWT({
        scope: scopes.join(" "),
        project_id: request.projectId,
        environment: request.environment,
      })
        .setProtectedHeader({ alg: algorithm, kid: stored.kid })
        .setIssuer(options.issuer)
        .setAudience(options.audience)
        .setSubject(request.subject)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .setJti(randomUUID())
        .sign(privateKey);
      return { accessToken, expiresAt: new Date(expiresAt * 1000) };
    },

    jwks() {
      return publicSet;
    },
  };
}

/**
 * Insert-if-absent through `_id` uniqueness: replicas starting together each generate a key,
 * exactly one insert wins, and the losers read the winner's, so all end up signing alike.
 */
async function loadOrCreateSigningKey(keys: Collection<SigningKeyDoc>): Promise<SigningKeyDoc> {
  const existing = await keys.findOne({ _id: signingKeyId });
  if (existing) return existing;

  const pair = await generateKeyPair(algorithm, { extractable: true });
  const publicJwk = await exportJWK(pair.publicKey);
  const privateJwk = await exportJWK(pair.privateKey);
  const candidate: SigningKeyDoc = {
    _id: signingKeyId,
    kid: await calculateJwkThumbprint(publicJwk),
    privateJwk,
    publicJwk,
    createdAt: new Date(),
  };
  try {
    await keys.insertOne(candidate);
    return candidate;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const winner = await keys.findOne({ _id: signingKeyId });
    if (!winner) throw new Error("dev-issuer signing key vanished after a duplicate-key insert", { cause: error });
    return winner;
  }
}

function isCryptoKey(key: CryptoKey | Uint8Array): key is CryptoKey {
  return !(key instanceof Uint8Array);
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
  const scopes = Array.isArray(request.scopes) ? [...new Set(request.scopes)] : [];
  // A token without scopes can do nothing, so asking for one is almost certainly a mistake.
  if (scopes.length === 0) details.push(`scopes must hold at least one of: ${allScopes.join(", ")}`);
  for (const scope of scopes) {
    if (!knownScopes.has(scope)) details.push(`scopes: "${String(scope)}" is not a known scope`);
  }
  if (
    !Number.isInteger(request.ttlSeconds) ||
    request.ttlSeconds < minTtlSeconds ||
    request.ttlSeconds > maxTtlSeconds
  ) {
    details.push(`ttlSeconds must be an integer from ${minTtlSeconds} to ${maxTtlSeconds}`);
  }
  if (details.length > 0) throw new AppError("VALIDATION_FAILED", undefined, { details });
  return scopes;
}
