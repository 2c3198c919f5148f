import { describe, expect, it } from "vitest";
import { calculateJwkThumbprint, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from "jose";
import { AppError, parseKeyRing, sealedKeyId } from "@bayad/kit";
import { createEmbeddedStore, type Store } from "@bayad/store";
import { createApiKeys } from "./api-keys.js";
import { createCredentialVerifier } from "./credential-verifier.js";
import { createDevTokenIssuer, maxTtlSeconds, type DevTokenIssuer } from "./service-tokens.js";
import { createSigningKeyStore, resealSigningKeys, signingKeysCollection } from "./signing-keys.js";

const issuer = "https://bayad.test/dev-issuer";
const audience = "bayad-gateway";
const secret = "test-gateway-secret-0123456789abcdef";
const hour = 3_600_000;
const request = {
  projectId: "prj_rotation",
  environment: "test" as const,
  subject: "login-service",
  scopes: ["otp:generate"],
  ttlSeconds: 600,
};

async function newStore(): Promise<Store> {
  const store = await createEmbeddedStore();
  await store.ensureIndexes();
  return store;
}

/** A clock the test moves; starts now, so tokens it signs are valid for jose's real clock. */
function movableClock() {
  let offsetMs = 0;
  return { now: () => new Date(Date.now() + offsetMs), advance: (ms: number) => void (offsetMs += ms) };
}

function verifierOf(store: Store, devIssuer: DevTokenIssuer) {
  return createCredentialVerifier({
    apiKeys: createApiKeys(store),
    devIssuer: { issuer, audience, jwks: () => devIssuer.jwks(), refresh: () => devIssuer.refresh() },
  });
}

const kidOf = (token: string) => decodeProtectedHeader(token).kid;
const publishedKids = (devIssuer: DevTokenIssuer) => devIssuer.jwks().keys.map((key) => key.kid);

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return "accepted";
}

describe("the development issuer's signing key rotation", () => {
  it("keeps a rotated key published until its last tokens have expired, then drops it", async () => {
    const store = await newStore();
    const clock = movableClock();
    const devIssuer = await createDevTokenIssuer(store, { issuer, audience, secret, rotationMs: 24 * hour, now: clock.now });
    const verifier = verifierOf(store, devIssuer);
    const before = (await devIssuer.issue(request)).accessToken;

    const keys = await devIssuer.rotate();

    expect(keys).toHaveLength(2);
    expect(keys[1]?.kid).toBe(kidOf(before));
    expect(Date.parse(keys[1]!.publishedUntil!) - Date.parse(keys[1]!.retiredAt!)).toBe(maxTtlSeconds * 1000);
    const after = (await devIssuer.issue(request)).accessToken;
    expect(kidOf(after)).toBe(keys[0]?.kid);
    expect(kidOf(after)).not.toBe(kidOf(before));
    expect((await verifier.verify(`Bearer ${before}`)).subject).toBe("login-service");
    expect((await verifier.verify(`Bearer ${after}`)).subject).toBe("login-service");

    clock.advance(maxTtlSeconds * 1000 - 1_000);
    expect(publishedKids(devIssuer)).toContain(kidOf(before));
    clock.advance(1_000);
    expect(publishedKids(devIssuer)).not.toContain(kidOf(before));
    expect(await refusal(verifier.verify(`Bearer ${before}`))).toBe("INVALID_CREDENTIALS");
    devIssuer.close();
  });

  it("replaces the signing key once it is older than the rotation period", async () => {
    const store = await newStore();
    const clock = movableClock();
    const devIssuer = await createDevTokenIssuer(store, { issuer, audience, secret, rotationMs: 6 * hour, now: clock.now });
    const first = kidOf((await devIssuer.issue(request)).accessToken);

    clock.advance(6 * hour - 1_000);
    expect(kidOf((await devIssuer.issue(request)).accessToken)).toBe(first);
    clock.advance(1_000);
    const second = kidOf((await devIssuer.issue(request)).accessToken);

    expect(second).not.toBe(first);
    expect(publishedKids(devIssuer)).toEqual([second, first]);
    devIssuer.close();
  });

  it("lets one of two replicas rotating from the same key set win, and both adopt its key", async () => {
    const store = await newStore();
    const keyStore = createSigningKeyStore(store, { secret, retentionMs: maxTtlSeconds * 1000, now: () => new Date() });
    const from = await keyStore.load();

    const [a, b] = await Promise.all([keyStore.rotate(from), keyStore.rotate(from)]);

    expect(a.version).toBe(from.version + 1);
    expect(b).toEqual(a);
    expect(a.keys).toHaveLength(2);
  });

  it("signs on every replica with the key the store names, and verifies a key another replica made", async () => {
    const store = await newStore();
    const one = await createDevTokenIssuer(store, { issuer, audience, secret, rotationMs: 24 * hour });
    const two = await createDevTokenIssuer(store, { issuer, audience, secret, rotationMs: 24 * hour });

    const [signing] = await one.rotate();
    const fromTwo = (await two.issue(request)).accessToken;
    const fromOne = (await one.issue(request)).accessToken;

    expect(kidOf(fromTwo)).toBe(signing?.kid);
    expect(kidOf(fromOne)).toBe(signing?.kid);
    expect((await verifierOf(store, two).verify(`Bearer ${fromOne}`)).subject).toBe("login-service");
    one.close();
    two.close();
  });

  it("stores private keys only sealed, and only the signing key's", async () => {
    const store = await newStore();
    const devIssuer = await createDevTokenIssuer(store, { issuer, audience, secret, rotationMs: 24 * hour });
    await devIssuer.rotate();

    const [record] = await store.collection(signingKeysCollection).find({});
    const text = JSON.stringify(record);

    for (const field of ["d", "p", "q", "dp", "dq", "qi", "privateJwk"]) expect(text).not.toContain(`"${field}":`);
    const keys = (record as unknown as { keys: { sealedPrivateJwk?: string }[] }).keys;
    expect(keys[0]?.sealedPrivateJwk).toMatch(/^v2\.legacy\./);
    expect(keys[1]?.sealedPrivateJwk).toBeUndefined();
    devIssuer.close();
  });

  it("keeps signing with the same key once it is resealed under a new GATEWAY_SECRETS key and the old key is gone", async () => {
    const store = await newStore();
    const before = await createDevTokenIssuer(store, { issuer, audience, secret, rotationMs: 24 * hour });
    const token = (await before.issue(request)).accessToken;
    before.close();

    const newer = "a-newer-gateway-secret-0123456789abcdef";
    const rotating = parseKeyRing(`legacy:${secret},g2:${newer}`, 32);
    expect(await resealSigningKeys(store, rotating)).toEqual({ resealed: 1, current: 0, unreadable: 0 });
    expect(await resealSigningKeys(store, rotating)).toEqual({ resealed: 0, current: 1, unreadable: 0 });
    const [record] = await store.collection(signingKeysCollection).find({});
    expect(sealedKeyId((record as unknown as { keys: { sealedPrivateJwk: string }[] }).keys[0]!.sealedPrivateJwk)).toBe("g2");

    const after = await createDevTokenIssuer(store, { issuer, audience, secret: parseKeyRing(`g2:${newer}`, 32), rotationMs: 24 * hour });
    expect(kidOf((await after.issue(request)).accessToken)).toBe(kidOf(token));
    after.close();
  });

  it("replaces a key sealed under another GATEWAY_SECRET, keeping it published", async () => {
    const store = await newStore();
    const before = await createDevTokenIssuer(store, { issuer, audience, secret, rotationMs: 24 * hour });
    const token = (await before.issue(request)).accessToken;
    before.close();

    const after = await createDevTokenIssuer(store, {
      issuer,
      audience,
      secret: "another-gateway-secret-0123456789abcdef",
      rotationMs: 24 * hour,
    });

    expect(kidOf((await after.issue(request)).accessToken)).not.toBe(kidOf(token));
    expect((await verifierOf(store, after).verify(`Bearer ${token}`)).subject).toBe("login-service");
    after.close();
  });

  it("converts the record that held a private key in clear, keeping its tokens valid", async () => {
    const store = await newStore();
    const pair = await generateKeyPair("ES256", { extractable: true });
    const publicJwk = await exportJWK(pair.publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    await store.collection(signingKeysCollection).insertOne({
      _id: "dev-issuer",
      kid,
      privateJwk: await exportJWK(pair.privateKey),
      publicJwk,
      createdAt: new Date(),
    } as { _id: string });
    const legacyToken = await new SignJWT({ scope: "otp:generate", project_id: "prj_rotation", environment: "test" })
      .setProtectedHeader({ alg: "ES256", kid })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject("legacy")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(pair.privateKey);

    const devIssuer = await createDevTokenIssuer(store, { issuer, audience, secret, rotationMs: 24 * hour });

    const text = JSON.stringify(await store.collection(signingKeysCollection).find({}));
    expect(text).not.toContain('"d":');
    expect(text).not.toContain("privateJwk");
    expect(publishedKids(devIssuer)).toContain(kid);
    expect((await verifierOf(store, devIssuer).verify(`Bearer ${legacyToken}`)).subject).toBe("legacy");
    expect(kidOf((await devIssuer.issue(request)).accessToken)).not.toBe(kid);
    devIssuer.close();
  });
});
