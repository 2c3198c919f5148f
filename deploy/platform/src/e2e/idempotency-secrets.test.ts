import { randomBytes, randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, newIdempotencyKey, startTestPlatform } from "../test-support/harness.js";

/**
 * What the gateway keeps of an Idempotency-Key (`idempotency_records`) must not give away what
 * the request or its answer held: an OTP's recipient or code, read back by anyone with the store.
 */

const otp = "/api/v1/shared/otp";
const newPhone = () => `+63917${String(randomInt(1_000_000, 9_999_999))}`;
const newEmail = () => `juan.${randomInt(1_000_000)}@example.ph`;

interface IdempotencyDoc {
  _id: string;
  idempotencyKey: string;
  state: string;
  fingerprint: string;
  request?: string;
  response?: string;
}

/** A gate the gateway waits at once an operation's outcome is known, before it records it. */
function outcomeGate() {
  let held: { operationId: string; reached: () => void; release: Promise<void> } | undefined;
  let crashNext: string | undefined;
  return {
    /** The next `operationId` waits at the gate; resolves (with its release) once it is there. */
    hold(operationId: string): Promise<() => void> {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      return new Promise((reached) => {
        held = { operationId, reached: () => reached(release), release: released };
      });
    },
    /** The next `operationId` "crashes" the gateway between its outcome and its record. */
    crash(operationId: string): void {
      crashNext = operationId;
    },
    async afterOutcome(operationId: string): Promise<void> {
      if (crashNext === operationId) {
        crashNext = undefined;
        throw new Error("injected crash: the gateway died before recording the response");
      }
      if (held?.operationId !== operationId) return;
      const gate = held;
      held = undefined;
      gate.reached();
      await gate.release;
    },
  };
}

async function startOtpPlatform(env: Record<string, string>, gate?: ReturnType<typeof outcomeGate>) {
  const api = await startTestPlatform(env, gate ? { afterOutcome: (operationId) => gate.afterOutcome(operationId) } : {});
  const token = await api.serviceToken(api.platform.projectId, ["otp:generate", "otp:verify", "otp:read"]);
  const records = api.platform.stores.gateway.collection<IdempotencyDoc>({ name: "idempotency_records" });
  return {
    api,
    /** Every stored idempotency record, as one text. */
    storedText: async () => JSON.stringify(await records.find({})),
    record: (key: string) => records.findOne({ idempotencyKey: key }),
    generate: (body: Record<string, unknown>, idempotencyKey = newIdempotencyKey()) =>
      api.request("POST", `${otp}/generate`, { body, credential: token, idempotencyKey }),
    verify: (otpId: string, code: string, idempotencyKey = newIdempotencyKey()) =>
      api.request("POST", `${otp}/verify`, { body: { otpId, code }, credential: token, idempotencyKey }),
    /** The code the development outbox holds for `otpId`. */
    async codeOf(recipient: string, otpId: string): Promise<string> {
      const response = await api.request("GET", `/admin/v1/otp/messages?recipient=${encodeURIComponent(recipient)}`, {
        credential: api.platform.adminApiKey,
      });
      const message = (response.body.data as Array<{ otpId: string; body: string }>).find((entry) => entry.otpId === otpId);
      const code = message?.body.match(/\b(\d{6})\b/)?.[1];
      if (!code) throw new Error(`no code for ${otpId} in the outbox`);
      return code;
    },
  };
}

/** The secrets of one OTP, each spelled as a store reader might search for it. */
function secretsOf(recipient: string, code?: string): string[] {
  const spellings = recipient.includes("@") ? [recipient, recipient.split("@")[0]!] : [recipient, recipient.slice(3), `0${recipient.slice(3)}`];
  return code ? [...spellings, code] : spellings;
}

function expectNoneIn(text: string, secrets: string[]): void {
  for (const secret of secrets) expect(text, `the stored records contain ${secret}`).not.toContain(secret);
}

describe("idempotency records of OTP requests", () => {
  const gate = outcomeGate();
  let otpApi: Awaited<ReturnType<typeof startOtpPlatform>>;

  beforeAll(async () => {
    // A short lease, so that reconciliation takes up a "crashed" request quickly.
    otpApi = await startOtpPlatform({ IDEMPOTENCY_LEASE_MS: "500" }, gate);
  });
  afterAll(() => otpApi?.api.close());

  for (const [channel, newRecipient] of [["sms", newPhone], ["email", newEmail]] as const) {
    it(`keep neither the ${channel} recipient nor the code, while the request is in flight or once completed`, async () => {
      const recipient = newRecipient();

      // generateOtp, caught between its outcome and its record: the record holds the request.
      const generateKey = newIdempotencyKey();
      const generateHeld = gate.hold("generateOtp");
      const generating = otpApi.generate({ recipient, channel }, generateKey);
      const releaseGenerate = await generateHeld;
      expect(await otpApi.record(generateKey)).toMatchObject({ state: "in_progress", request: expect.any(String) });
      expectNoneIn(await otpApi.storedText(), secretsOf(recipient));
      releaseGenerate();
      const generated = await generating;
      expect(generated.status).toBe(201);
      const otpId: string = generated.body.data.otpId;
      expect(await otpApi.record(generateKey)).toMatchObject({ state: "completed", response: expect.stringContaining(otpId) });

      // verifyOtp, the same way: its request holds the code.
      const code = await otpApi.codeOf(recipient, otpId);
      const verifyKey = newIdempotencyKey();
      const verifyHeld = gate.hold("verifyOtp");
      const verifying = otpApi.verify(otpId, code, verifyKey);
      const releaseVerify = await verifyHeld;
      expect(await otpApi.record(verifyKey)).toMatchObject({ state: "in_progress", request: expect.any(String) });
      expectNoneIn(await otpApi.storedText(), secretsOf(recipient, code));
      releaseVerify();
      const verified = await verifying;
      expect(verified.status).toBe(200);
      expect(verified.body.data.verified).toBe(true);

      // Completed: the answers are replayed, and still nothing of the recipient or the code is stored.
      expect(await otpApi.record(verifyKey)).toMatchObject({ state: "completed" });
      expectNoneIn(await otpApi.storedText(), secretsOf(recipient, code));
      const replayed = await otpApi.verify(otpId, code, verifyKey);
      expect(replayed.headers.get("Idempotent-Replayed")).toBe("true");
      expect(replayed.body.data).toEqual(verified.body.data);
      const replayedGenerate = await otpApi.generate({ recipient, channel }, generateKey);
      expect(replayedGenerate.headers.get("Idempotent-Replayed")).toBe("true");
      expect(replayedGenerate.body.data).toEqual(generated.body.data);
    });
  }

  it("still lets reconciliation run a crashed verify again, with the code it sealed", async () => {
    const recipient = newPhone();
    const generated = await otpApi.generate({ recipient, channel: "sms" });
    const otpId: string = generated.body.data.otpId;
    const code = await otpApi.codeOf(recipient, otpId);

    const key = newIdempotencyKey();
    gate.crash("verifyOtp");
    const crashed = await otpApi.verify(otpId, code, key);
    expect(crashed.status).toBe(500);
    expectNoneIn(await otpApi.storedText(), secretsOf(recipient, code));

    // Nobody retries: the reconciler takes the record up once its lease has run out, opens the
    // request and runs the verify again with the same key, which answers as the first run did.
    const settled = await eventually(async () => ((await otpApi.record(key))?.state === "completed" ? true : undefined));
    expect(settled).toBe(true);
    const replayed = await otpApi.verify(otpId, code, key);
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replayed.body.data).toMatchObject({ otpId, verified: true });
    expectNoneIn(await otpApi.storedText(), secretsOf(recipient, code));
  });
});

describe("idempotency fingerprints under two gateway secrets", () => {
  const secrets = [randomBytes(32).toString("base64url"), randomBytes(32).toString("base64url")];
  let platforms: Array<Awaited<ReturnType<typeof startOtpPlatform>>> = [];

  beforeAll(async () => {
    platforms = await Promise.all(secrets.map((secret) => startOtpPlatform({ GATEWAY_SECRET: secret })));
  });
  afterAll(() => Promise.all(platforms.map((platform) => platform.api.close())));

  it("differ for one request: the fingerprint is keyed with GATEWAY_SECRET, and the same under one secret", async () => {
    const recipient = newPhone();
    const fingerprints: string[] = [];
    for (const platform of platforms) {
      const key = newIdempotencyKey();
      expect((await platform.generate({ recipient, channel: "sms" }, key)).status).toBe(201);
      fingerprints.push((await platform.record(key))!.fingerprint);
    }
    expect(fingerprints[0]).not.toBe(fingerprints[1]);

    const again = newIdempotencyKey();
    await platforms[0]!.generate({ recipient, channel: "sms" }, again);
    expect((await platforms[0]!.record(again))!.fingerprint).toBe(fingerprints[0]);
  });
});
