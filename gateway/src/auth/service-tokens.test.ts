import { describe, expect, it } from "vitest";
import {
  SignJWT,
  UnsecuredJWT,
  calculateJwkThumbprint,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  type CryptoKey,
  type JWK,
} from "jose";
import { AppError } from "@bayad/kit";
import { createEmbeddedStore, type Store } from "@bayad/store";
import { createApiKeys } from "./api-keys.js";
import { createCredentialVerifier } from "./credential-verifier.js";
import { createDevTokenIssuer, signingKeysCollection } from "./service-tokens.js";

const issuer = "https://bayad.test/dev-issuer";
const audience = "bayad-gateway";
/** The GATEWAY_SECRET the keys are sealed under, and a day's rotation. */
const keyOptions = { secret: "test-gateway-secret-0123456789abcdef", rotationMs: 24 * 3_600_000 };

async function newStore(): Promise<Store> {
  const store = await createEmbeddedStore();
  await store.ensureIndexes();
  return store;
}

function verifierFor(store: Store, jwks: () => { keys: JWK[] }) {
  return createCredentialVerifier({
    apiKeys: createApiKeys(store),
    devIssuer: { issuer, audience, jwks },
  });
}

async function setup() {
  const store = await newStore();
  const devIssuer = await createDevTokenIssuer(store, { ...keyOptions, issuer, audience });
  return { store, devIssuer, verifier: verifierFor(store, () => devIssuer.jwks()) };
}

async function rejectionOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

async function expectInvalid(promise: Promise<unknown>): Promise<void> {
  const error = await rejectionOf(promise);
  expect(error.code).toBe("INVALID_CREDENTIALS");
  expect(error.headers?.["WWW-Authenticate"]).toBe('Bearer realm="bayad"');
}

const request = {
  projectId: "prj_tokens",
  environment: "test" as const,
  subject: "login-service",
  scopes: ["otp:generate", "otp:verify"],
  ttlSeconds: 600,
};

/** A key of the test's own, trusted by the verifier, to sign tokens the issuer would refuse to. */
async function ownKey(): Promise<{ privateKey: CryptoKey; jwk: JWK; kid: string }> {
  const pair = await generateKeyPair("ES256", { extractable: true });
  const publicJwk = await exportJWK(pair.publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return { privateKey: pair.privateKey, jwk: { ...publicJwk, kid, alg: "ES256" }, kid };
}

function claimsFor(overrides: Record<string, unknown> = {}) {
  return {
    scope: "otp:generate",
    project_id: "prj_tokens",
    environment: "test",
    ...overrides,
  };
}

async function signOwn(key: { privateKey: CryptoKey; kid: string }, claims: Record<string, unknown>) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", kid: key.kid })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject("svc")
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(key.privateKey);
}

describe("createDevTokenIssuer", () => {
  it("issues a token that verifies to the right caller and scopes", async () => {
    const { devIssuer, verifier } = await setup();

    const { accessToken } = await devIssuer.issue(request);

    expect(await verifier.verify(`Bearer ${accessToken}`)).toEqual({
      kind: "service_token",
      projectId: "prj_tokens",
      environment: "test",
      scopes: ["otp:generate", "otp:verify"],
      subject: "login-service",
    });
  });

  it("signs ES256 with a kid and sets the documented claims", async () => {
    const store = await newStore();
    const now = new Date("2030-05-01T10:00:00.000Z");
    const devIssuer = await createDevTokenIssuer(store, { ...keyOptions, issuer, audience, now: () => now });

    const { accessToken, expiresAt } = await devIssuer.issue({ ...request, environment: "live" });

    const header = decodeProtectedHeader(accessToken);
    expect(header).toEqual({ alg: "ES256", kid: devIssuer.jwks().keys[0]?.kid });
    const claims = decodeJwt(accessToken);
    expect(claims).toMatchObject({
      iss: issuer,
      aud: audience,
      sub: "login-service",
      scope: "otp:generate otp:verify",
      project_id: "prj_tokens",
      environment: "live",
      iat: now.getTime() / 1000,
      exp: now.getTime() / 1000 + 600,
    });
    expect(typeof claims.jti).toBe("string");
    expect(expiresAt).toEqual(new Date(now.getTime() + 600_000));
  });

  it("publishes only the public key", async () => {
    const { devIssuer } = await setup();

    const { keys } = devIssuer.jwks();

    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    expect(keys[0]?.kid).toEqual(expect.any(String));
    expect(keys[0]).not.toHaveProperty("d");
  });

  it("gives two issuers starting at once on one store the same key", async () => {
    const store = await newStore();

    const [first, second] = await Promise.all([
      createDevTokenIssuer(store, { ...keyOptions, issuer, audience }),
      createDevTokenIssuer(store, { ...keyOptions, issuer, audience }),
    ]);

    expect(first.jwks()).toEqual(second.jwks());
    expect(await store.collection(signingKeysCollection).count({})).toBe(1);
    const { accessToken } = await first.issue(request);
    const caller = await verifierFor(store, () => second.jwks()).verify(`Bearer ${accessToken}`);
    expect(caller.subject).toBe("login-service");
  });

  it("keeps the key across restarts", async () => {
    const store = await newStore();
    const before = await createDevTokenIssuer(store, { ...keyOptions, issuer, audience });

    const after = await createDevTokenIssuer(store, { ...keyOptions, issuer, audience });

    expect(after.jwks()).toEqual(before.jwks());
  });

  it("refuses to issue with unknown scopes, a bad environment or a bad TTL", async () => {
    const { devIssuer } = await setup();

    const error = await rejectionOf(
      devIssuer.issue({
        ...request,
        environment: "prod" as "test",
        scopes: ["otp:generate", "admin:everything"],
        ttlSeconds: 0,
      }),
    );

    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.details).toHaveLength(3);
    expect(error.details?.join("\n")).toContain("admin:everything");
  });
});

describe("service token verification", () => {
  it("refuses an expired token", async () => {
    const store = await newStore();
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    const pastIssuer = await createDevTokenIssuer(store, { ...keyOptions, issuer, audience, now: () => twoHoursAgo });
    const { accessToken } = await pastIssuer.issue({ ...request, ttlSeconds: 60 });

    await expectInvalid(verifierFor(store, () => pastIssuer.jwks()).verify(`Bearer ${accessToken}`));
  });

  it("refuses a token for another audience, though signed with the right key", async () => {
    const { store, verifier } = await setup();
    const otherAudience = await createDevTokenIssuer(store, { ...keyOptions, issuer, audience: "someone-else" });
    const { accessToken } = await otherAudience.issue(request);

    await expectInvalid(verifier.verify(`Bearer ${accessToken}`));
  });

  it("refuses a token from another issuer, though signed with the right key", async () => {
    const { store, verifier } = await setup();
    const otherIssuer = await createDevTokenIssuer(store, { ...keyOptions, issuer: "https://evil.test", audience });
    const { accessToken } = await otherIssuer.issue(request);

    await expectInvalid(verifier.verify(`Bearer ${accessToken}`));
  });

  it("refuses an HS256 token signed with a shared secret", async () => {
    const { devIssuer, verifier } = await setup();
    const token = await new SignJWT(claimsFor())
      .setProtectedHeader({ alg: "HS256", kid: devIssuer.jwks().keys[0]?.kid })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject("svc")
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("a-shared-secret-that-is-long-enough!!"));

    await expectInvalid(verifier.verify(`Bearer ${token}`));
  });

  it("refuses an unsigned alg:none token", async () => {
    const { verifier } = await setup();
    const token = new UnsecuredJWT(claimsFor())
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject("svc")
      .setExpirationTime("5m")
      .encode();

    await expectInvalid(verifier.verify(`Bearer ${token}`));
  });

  it("refuses a token signed by another key under the issuer's kid", async () => {
    const { devIssuer, verifier } = await setup();
    const impostor = await ownKey();

    const token = await signOwn({ ...impostor, kid: devIssuer.jwks().keys[0]?.kid ?? "" }, claimsFor());

    await expectInvalid(verifier.verify(`Bearer ${token}`));
  });

  it("refuses a signed token missing project_id, and accepts the same token with it", async () => {
    const store = await newStore();
    const key = await ownKey();
    const verifier = verifierFor(store, () => ({ keys: [key.jwk] }));
    const { project_id: _omitted, ...withoutProject } = claimsFor();

    await expectInvalid(verifier.verify(`Bearer ${await signOwn(key, withoutProject)}`));
    const caller = await verifier.verify(`Bearer ${await signOwn(key, claimsFor())}`);
    expect(caller.projectId).toBe("prj_tokens");
  });

  it("refuses an environment other than test or live", async () => {
    const store = await newStore();
    const key = await ownKey();
    const verifier = verifierFor(store, () => ({ keys: [key.jwk] }));

    await expectInvalid(verifier.verify(`Bearer ${await signOwn(key, claimsFor({ environment: "prod" }))}`));
  });

  it("refuses a token without exp", async () => {
    const store = await newStore();
    const key = await ownKey();
    const verifier = verifierFor(store, () => ({ keys: [key.jwk] }));
    const token = await new SignJWT(claimsFor())
      .setProtectedHeader({ alg: "ES256", kid: key.kid })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject("svc")
      .sign(key.privateKey);

    await expectInvalid(verifier.verify(`Bearer ${token}`));
  });

  it("keeps only the scopes the platform knows", async () => {
    const store = await newStore();
    const key = await ownKey();
    const verifier = verifierFor(store, () => ({ keys: [key.jwk] }));
    const token = await signOwn(key, claimsFor({ scope: "otp:read admin:all  otp:read payments:read" }));

    expect((await verifier.verify(`Bearer ${token}`)).scopes).toEqual(["otp:read", "payments:read"]);
  });
});
