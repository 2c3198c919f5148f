import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, type CryptoKey, type JWK } from "jose";
import { AppError } from "@bayad/kit";
import { createEmbeddedStore, type Store } from "@bayad/store";
import { createApiKeys } from "./api-keys.js";
import { apiKeyScopes } from "./caller.js";
import { createCredentialVerifier } from "./credential-verifier.js";
import { createDevTokenIssuer } from "./service-tokens.js";

const externalIssuer = "https://idp.example.test/";
const audience = "bayad-gateway";

/** An external identity provider: its own RS256 key, published as a JWKS over real HTTP. */
let idp: Server;
let idpUrl: string;
let idpKey: { privateKey: CryptoKey; kid: string };

beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true });
  const publicJwk = await exportJWK(pair.publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  idpKey = { privateKey: pair.privateKey, kid };
  const jwks = { keys: [{ ...publicJwk, kid, alg: "RS256", use: "sig" } satisfies JWK] };
  idp = createServer((request, response) => {
    if (request.url === "/.well-known/jwks.json") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(jwks));
    } else {
      response.writeHead(500, { "content-type": "text/plain" });
      response.end("down");
    }
  });
  await new Promise<void>((resolve) => idp.listen(0, "127.0.0.1", resolve));
  idpUrl = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => idp.close(() => resolve()));
});

async function newStore(): Promise<Store> {
  const store = await createEmbeddedStore();
  await store.ensureIndexes();
  return store;
}

function externalVerifier(store: Store, jwksPath = "/.well-known/jwks.json") {
  return createCredentialVerifier({
    apiKeys: createApiKeys(store),
    external: { jwksUrl: `${idpUrl}${jwksPath}`, issuer: externalIssuer, audience },
  });
}

async function idpToken(
  claims: Record<string, unknown>,
  key: { privateKey: CryptoKey; kid: string } = idpKey,
  iss = externalIssuer,
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", kid: key.kid })
    .setIssuer(iss)
    .setAudience(audience)
    .setSubject("billing-worker")
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(key.privateKey);
}

const serviceClaims = { scope: "otp:generate otp:read", project_id: "prj_ext", environment: "live" };

async function rejectionOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("createCredentialVerifier", () => {
  it.each([
    ["no Authorization header", undefined],
    ["an empty header", ""],
    ["another scheme", "Basic dXNlcjpwYXNz"],
    ["Bearer without a token", "Bearer "],
  ])("asks for a Bearer credential when given %s", async (_label, header) => {
    const verifier = createCredentialVerifier({ apiKeys: createApiKeys(await newStore()) });

    const error = await rejectionOf(verifier.verify(header));

    expect(error.code).toBe("AUTHENTICATION_REQUIRED");
    expect(error.httpStatus).toBe(401);
    expect(error.headers?.["WWW-Authenticate"]).toBe('Bearer realm="bayad"');
  });

  it("refuses a Bearer token that is neither an API key nor a JWT", async () => {
    const verifier = createCredentialVerifier({ apiKeys: createApiKeys(await newStore()) });

    const error = await rejectionOf(verifier.verify("Bearer not-a-credential"));

    expect(error.code).toBe("INVALID_CREDENTIALS");
    expect(error.headers?.["WWW-Authenticate"]).toBe('Bearer realm="bayad"');
  });

  it("resolves an API key to its project with the API key scopes", async () => {
    const apiKeys = createApiKeys(await newStore());
    const issued = await apiKeys.issue("prj_keys", "test");
    const verifier = createCredentialVerifier({ apiKeys });

    expect(await verifier.verify(`Bearer ${issued.apiKey}`)).toEqual({
      kind: "api_key",
      projectId: "prj_keys",
      environment: "test",
      scopes: apiKeyScopes,
      subject: issued.keyId,
    });
  });

  it("refuses an unknown API key", async () => {
    const verifier = createCredentialVerifier({ apiKeys: createApiKeys(await newStore()) });

    const error = await rejectionOf(verifier.verify(`Bearer sk_live_${"Z".repeat(32)}`));

    expect(error.code).toBe("INVALID_CREDENTIALS");
  });

  it("verifies a token from an external issuer against its JWKS", async () => {
    const verifier = externalVerifier(await newStore());

    const caller = await verifier.verify(`Bearer ${await idpToken(serviceClaims)}`);

    expect(caller).toEqual({
      kind: "service_token",
      projectId: "prj_ext",
      environment: "live",
      scopes: ["otp:generate", "otp:read"],
      subject: "billing-worker",
    });
  });

  it("refuses an external-issuer token signed by a key the issuer does not publish", async () => {
    const verifier = externalVerifier(await newStore());
    const pair = await generateKeyPair("RS256");
    const stranger = { privateKey: pair.privateKey, kid: "not-published" };

    const error = await rejectionOf(verifier.verify(`Bearer ${await idpToken(serviceClaims, stranger)}`));

    expect(error.code).toBe("INVALID_CREDENTIALS");
  });

  it("refuses a token naming an issuer it does not trust", async () => {
    const verifier = externalVerifier(await newStore());

    const token = await idpToken(serviceClaims, idpKey, "https://elsewhere.test/");
    const error = await rejectionOf(verifier.verify(`Bearer ${token}`));

    expect(error.code).toBe("INVALID_CREDENTIALS");
  });

  it("answers 503, not 401, when the issuer's JWKS cannot be fetched", async () => {
    const verifier = externalVerifier(await newStore(), "/broken-jwks");

    const error = await rejectionOf(verifier.verify(`Bearer ${await idpToken(serviceClaims)}`));

    expect(error.code).toBe("SERVICE_UNAVAILABLE");
  });

  it("accepts tokens of the dev issuer and the external issuer side by side", async () => {
    const store = await newStore();
    const devIssuer = await createDevTokenIssuer(store, {
      issuer: "https://bayad.test/dev",
      audience,
      secret: "test-gateway-secret-0123456789abcdef",
      rotationMs: 24 * 3_600_000,
    });
    const verifier = createCredentialVerifier({
      apiKeys: createApiKeys(store),
      devIssuer: { issuer: "https://bayad.test/dev", audience, jwks: () => devIssuer.jwks() },
      external: { jwksUrl: `${idpUrl}/.well-known/jwks.json`, issuer: externalIssuer, audience },
    });
    const { accessToken } = await devIssuer.issue({
      projectId: "prj_dev",
      environment: "test",
      subject: "otp-client",
      scopes: ["otp:verify"],
      ttlSeconds: 300,
    });

    expect((await verifier.verify(`Bearer ${accessToken}`)).projectId).toBe("prj_dev");
    expect((await verifier.verify(`Bearer ${await idpToken(serviceClaims)}`)).projectId).toBe("prj_ext");
  });
});
