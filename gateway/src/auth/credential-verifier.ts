import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  errors as joseErrors,
  jwtVerify,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from "jose";
import { AppError, isEnvironment } from "@bayad/kit";
import type { ApiKeys } from "./api-keys.js";
import { apiKeyScopes, knownScopes, type Caller } from "./caller.js";

/**
 * Turns an Authorization header into a Caller: a project API key, or a service JWT from the dev
 * issuer or a trusted external issuer. Every refusal is the same 401 whatever check failed, so
 * a prober learns nothing about which part of a forged credential was wrong.
 */

/** RFC 6750 challenge sent with every 401, so clients know which scheme to use. */
export const bearerChallenge = { "WWW-Authenticate": 'Bearer realm="bayad"' } as const;

/**
 * Asymmetric algorithms only. `none` is absent, and so is HS*: with a symmetric algorithm the
 * verifying key is also a signing key, and an attacker could sign with a published public key.
 */
export const allowedAlgorithms = ["ES256", "RS256", "PS256", "EdDSA"];

export function authenticationRequired(): AppError {
  return new AppError("AUTHENTICATION_REQUIRED", undefined, { headers: { ...bearerChallenge } });
}

export function invalidCredentials(cause?: unknown): AppError {
  return new AppError("INVALID_CREDENTIALS", undefined, { cause, headers: { ...bearerChallenge } });
}

/** The token of a `Bearer <token>` header (scheme case-insensitive, RFC 7235); else throws 401. */
export function bearerTokenOf(authorizationHeader: string | undefined): string {
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(authorizationHeader ?? "");
  if (!match?.[1]) throw authenticationRequired();
  return match[1];
}

export interface TrustedIssuer {
  issuer: string;
  audience: string;
}

export interface CredentialVerifierOptions {
  apiKeys: Pick<ApiKeys, "verify">;
  /**
   * The development issuer: its published keys, and a way to read them again when a token names
   * a key not among them (another replica has just rotated).
   */
  devIssuer?: TrustedIssuer & { jwks: () => { keys: JWK[] }; refresh?: () => Promise<void> };
  external?: TrustedIssuer & { jwksUrl: string };
}

export interface CredentialVerifier {
  verify: (authorizationHeader: string | undefined) => Promise<Caller>;
}

const apiKeyShape = /^sk_(test|live)_/;
// Three base64url segments; the signature may be empty so an `alg: none` token reaches jose and
// is refused there by the allow-list rather than slipping through some other branch.
const jwtShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export function createCredentialVerifier(options: CredentialVerifierOptions): CredentialVerifier {
  const issuers = new Map<string, { audience: string; getKey: JWTVerifyGetKey }>();
  if (options.external) {
    issuers.set(options.external.issuer, {
      audience: options.external.audience,
      getKey: remoteKeys(options.external.jwksUrl),
    });
  }
  // Set second so that, were both configured with one issuer name, the local keys win.
  if (options.devIssuer) {
    issuers.set(options.devIssuer.issuer, {
      audience: options.devIssuer.audience,
      getKey: localKeys(options.devIssuer.jwks, options.devIssuer.refresh),
    });
  }

  async function verifyApiKey(token: string): Promise<Caller> {
    const key = await options.apiKeys.verify(token);
    if (!key) throw invalidCredentials();
    return {
      kind: "api_key",
      projectId: key.projectId,
      environment: key.environment,
      scopes: apiKeyScopes,
      subject: key.keyId,
    };
  }

  async function verifyServiceToken(token: string): Promise<Caller> {
    let trusted: { issuer: string; audience: string; getKey: JWTVerifyGetKey } | undefined;
    try {
      // The unverified `iss` only chooses which keys to check against; jwtVerify then checks
      // `iss` again as part of the signed claims, so a lie here just fails verification.
      const claimedIssuer = decodeJwt(token).iss;
      const entry = claimedIssuer === undefined ? undefined : issuers.get(claimedIssuer);
      if (claimedIssuer !== undefined && entry) trusted = { issuer: claimedIssuer, ...entry };
    } catch (error) {
      throw invalidCredentials(error);
    }
    if (!trusted) throw invalidCredentials();

    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, trusted.getKey, {
        issuer: trusted.issuer,
        audience: trusted.audience,
        algorithms: allowedAlgorithms,
        requiredClaims: ["exp", "sub"],
      }));
    } catch (error) {
      if (error instanceof IssuerUnavailable) {
        throw new AppError("SERVICE_UNAVAILABLE", "The token issuer's keys cannot be fetched.", {
          cause: error.cause,
        });
      }
      throw invalidCredentials(error);
    }

    const projectId = payload.project_id;
    const environment = payload.environment;
    if (
      typeof payload.sub !== "string" ||
      payload.sub.length === 0 ||
      typeof projectId !== "string" ||
      projectId.length === 0 ||
      !isEnvironment(environment)
    ) {
      throw invalidCredentials();
    }
    return {
      kind: "service_token",
      projectId,
      environment,
      scopes: knownScopesOf(payload.scope),
      subject: payload.sub,
    };
  }

  return {
    async verify(authorizationHeader) {
      const token = bearerTokenOf(authorizationHeader);
      if (apiKeyShape.test(token)) return verifyApiKey(token);
      if (jwtShape.test(token)) return verifyServiceToken(token);
      throw invalidCredentials();
    },
  };
}

/** OAuth-style space-separated scopes; unknown ones are dropped rather than trusted. */
function knownScopesOf(scope: unknown): string[] {
  if (typeof scope !== "string") return [];
  return [...new Set(scope.split(" ").filter((s) => knownScopes.has(s)))];
}

/**
 * The dev issuer's keys, re-imported only when `jwks()` hands back a different object, so key
 * rotation is picked up without importing keys on every request. A token whose `kid` is not
 * among them makes the issuer read its keys again once before it is refused.
 */
function localKeys(jwks: () => { keys: JWK[] }, refresh?: () => Promise<void>): JWTVerifyGetKey {
  let source: { keys: JWK[] } | undefined;
  let keySet: ReturnType<typeof createLocalJWKSet> | undefined;
  const current = () => {
    const latest = jwks();
    if (!keySet || latest !== source) {
      source = latest;
      keySet = createLocalJWKSet(latest);
    }
    return keySet;
  };
  return async (header, token) => {
    try {
      return await current()(header, token);
    } catch (error) {
      if (!refresh || !(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
      await refresh();
      return current()(header, token);
    }
  };
}

/** Marks a failure to obtain the issuer's keys: our outage, not the caller's bad credential. */
class IssuerUnavailable extends Error {
  constructor(cause: unknown) {
    super("the token issuer's JWKS could not be fetched", { cause });
    this.name = "IssuerUnavailable";
  }
}

/**
 * An external issuer's JWKS, fetched and cached by jose (refetched when an unknown `kid`
 * appears, with a cooldown). A token naming a key the issuer does not have is the caller's
 * fault (401); a JWKS that cannot be fetched or parsed is ours (503), so an outage is not
 * reported to callers as their credentials being wrong.
 */
function remoteKeys(jwksUrl: string): JWTVerifyGetKey {
  const keySet = createRemoteJWKSet(new URL(jwksUrl));
  return async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (error) {
      if (
        error instanceof joseErrors.JOSEError &&
        !(error instanceof joseErrors.JWKSTimeout) &&
        !(error instanceof joseErrors.JWKSInvalid) &&
        error.code !== joseErrors.JOSEError.code
      ) {
        throw error;
      }
      throw new IssuerUnavailable(error);
    }
  };
}
