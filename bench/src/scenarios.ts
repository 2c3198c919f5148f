import { randomBytes } from "node:crypto";
import { durableFloorDocument } from "./baselines/durable-floor-document.js";
import { defaultOutcome, type RequestPlan } from "./run-autocannon.js";

/** One row of the table: what is sent, and which outcomes leave the row valid. */
export interface Scenario {
  /** Stable id, for comparing JSON results between commits. */
  id: string;
  label: string;
  plan: RequestPlan;
  /**
   * Outcomes (see RequestPlan.outcome) a valid run may contain. Any other outcome, or a request
   * without a response, marks the row invalid: its figures would describe a failure.
   */
  expected: readonly string[];
}

/** A prefix unique to this benchmark process, so keys and references never meet earlier ones. */
const runPrefix = `bench-${randomBytes(6).toString("hex")}`;
let sequence = 0;

/** A value never used before in this run (Idempotency-Key needs 16–255 characters). */
export function freshValue(kind: string): string {
  sequence += 1;
  return `${runPrefix}-${kind}-${sequence}`;
}

const bearer = (credential: string) => ({ Authorization: `Bearer ${credential}` });
const json = { "Content-Type": "application/json" };

/** A CheckoutCreateRequest as the OpenAPI document's example has it. */
export function checkoutBody(referenceId: string): string {
  return JSON.stringify({
    referenceId,
    amount: { amountMinor: 150_000, currency: "PHP" },
    successUrl: "https://shop.example.com/paid",
    cancelUrl: "https://shop.example.com/cart",
  });
}

/** The same small JSON from a server with nothing in front (see baselines/), at `path`. */
export function baseline(id: string, label: string, path: string): Scenario {
  return { id, label, plan: { method: "GET", path }, expected: ["200"] };
}

/** The durable floor (baselines/durable-floor-server.ts): the ~1 KB document POSTed at `path`, stored before the 201. */
export function durableFloor(id: string, label: string, path: string): Scenario {
  return {
    id,
    label,
    plan: { method: "POST", path, headers: json, body: JSON.stringify(durableFloorDocument) },
    expected: ["201"],
  };
}

/** 1: a read that touches no store: the gateway's and one gRPC hop's own cost. */
export function capabilities(apiKey: string): Scenario {
  return {
    id: "s1.capabilities",
    label: "1 GET /payments/capabilities",
    plan: { method: "GET", path: "/api/v1/payments/capabilities", headers: bearer(apiKey) },
    expected: ["200"],
  };
}

/**
 * 2: a new checkout per request: a fresh Idempotency-Key and a fresh referenceId (unique per
 * project), so each request claims a key, creates a checkout with its outbox event and
 * completes the key.
 */
export function createCheckouts(apiKey: string): Scenario {
  return {
    id: "s2.create-checkout",
    label: "2 POST /payments/checkouts (fresh key)",
    plan: {
      method: "POST",
      path: "/api/v1/payments/checkouts",
      headers: { ...bearer(apiKey), ...json },
      perRequest: () => ({
        headers: { "Idempotency-Key": freshValue("key") },
        body: checkoutBody(freshValue("order")),
      }),
    },
    expected: ["201"],
  };
}

/**
 * 7: scenario 2's load, unchanged, while webhook-delivery.ts pays a few checkouts of its own on
 * the side and times their deliveries: what delivering costs the checkouts, and how long a
 * delivery takes when the platform is busy.
 */
export function createCheckoutsWithDeliveries(apiKey: string): Scenario {
  return { ...createCheckouts(apiKey), id: "s7.webhook-delivery", label: "7 POST /payments/checkouts (2) with webhook deliveries" };
}

/**
 * 3: one key and one body, already used once before the run, so every request is a replay of
 * the stored response (checked by the Idempotent-Replayed header).
 */
export function replayCheckout(apiKey: string, idempotencyKey: string, body: string): Scenario {
  return {
    id: "s3.replay-checkout",
    label: "3 POST /payments/checkouts (replay)",
    plan: {
      method: "POST",
      path: "/api/v1/payments/checkouts",
      headers: { ...bearer(apiKey), ...json, "Idempotency-Key": idempotencyKey },
      body,
      outcome: (status, responseBody, headers) => {
        const replayed = headerValue(headers, "idempotent-replayed") === "true";
        return status === 201 ? `201${replayed ? " replayed" : " not replayed"}` : defaultOutcome(status, responseBody);
      },
    },
    expected: ["201 replayed"],
  };
}

/** 4: a read by id from the payments service's store. */
export function getCheckout(apiKey: string, checkoutId: string): Scenario {
  return {
    id: "s4.get-checkout",
    label: "4 GET /payments/checkouts/{id}",
    plan: { method: "GET", path: `/api/v1/payments/checkouts/${checkoutId}`, headers: bearer(apiKey) },
    expected: ["200"],
  };
}

/** 5: the newest page of the records feed at size `target` (`stored` records actually held). */
export function listRecords(apiKey: string, target: number, stored: number): Scenario {
  return {
    id: `s5.records@${target}`,
    label: `5 GET /payments/records?limit=50 (${stored.toLocaleString("en-US")} stored)`,
    plan: { method: "GET", path: "/api/v1/payments/records?limit=50", headers: bearer(apiKey) },
    expected: ["200"],
  };
}

/**
 * 6: wrong codes against one OTP, each with its own Idempotency-Key (a repeated key would be a
 * replay, not an attempt). The first few are answered `verified: false` (the fifth locks the
 * code); after the per-code limit every answer is 429 RATE_LIMITED. Both are the expected
 * answers of this path; anything else (401, 403, 500…) invalidates the row.
 */
export function verifyWrongCodes(serviceToken: string, otpId: string, wrongCode: string): Scenario {
  return {
    id: "s6.otp-verify-wrong",
    label: "6 POST /shared/otp/verify (wrong codes)",
    plan: {
      method: "POST",
      path: "/api/v1/shared/otp/verify",
      headers: { ...bearer(serviceToken), ...json },
      body: JSON.stringify({ otpId, code: wrongCode }),
      perRequest: () => ({ headers: { "Idempotency-Key": freshValue("verify") } }),
      outcome: (status, responseBody) => {
        if (status !== 200) return defaultOutcome(status, responseBody);
        try {
          return `200 verified:${String((JSON.parse(responseBody) as { data?: { verified?: unknown } }).data?.verified)}`;
        } catch {
          return "200 (body not JSON)";
        }
      },
    },
    expected: ["200 verified:false", "429 RATE_LIMITED"],
  };
}

function headerValue(headers: Record<string, unknown>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return String(value);
  }
  return undefined;
}
