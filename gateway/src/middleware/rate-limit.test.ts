import type { Context } from "koa";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RateLimitCharge, RateLimitLeases, RateLimitOutcome } from "@bayad/kit";
import { StoreNotWritableError } from "@bayad/store";
import type { OperationSpec } from "../openapi/document.js";
import { rateLimit, type RateLimitSettings } from "./rate-limit.js";

const now = Date.parse("2026-03-01T08:00:00.000Z");
const settings: RateLimitSettings = {
  credential: { reads: { limit: 100, windowSeconds: 1 }, writes: { limit: 50, windowSeconds: 1 } },
  project: { reads: { limit: 200, windowSeconds: 60 }, writes: { limit: 100, windowSeconds: 60 } },
};
const read = { method: "GET" } as OperationSpec;
const caller = { kind: "api_key", projectId: "prj_1", environment: "test", scopes: [], subject: "key_1" };

/** A context that keeps the fields set on it. */
function contextOf() {
  const fields: Record<string, string> = {};
  const set = (name: string | Record<string, string>, value?: string) => {
    if (typeof name === "string") fields[name] = value ?? "";
    else Object.assign(fields, name);
  };
  const ctx = { state: { caller }, set } as unknown as Context;
  return { ctx, fields };
}

/** Leases that answer `outcome` for every call (at once, or as a renewal would), keeping what they were asked. */
function leasesAnswering(answer: () => RateLimitOutcome | Promise<RateLimitOutcome>) {
  const asked: Array<{ leaseKey: string; charges: readonly RateLimitCharge[] }> = [];
  const leases: RateLimitLeases = {
    take(leaseKey, charges) {
      asked.push({ leaseKey, charges });
      return answer();
    },
  };
  return { leases, asked };
}

const allowed: RateLimitOutcome = {
  allowed: true,
  calls: 1,
  limits: [
    { scope: "credential-reads", setting: settings.credential.reads, remaining: 42, resetAt: now + 400 },
    { scope: "project-reads", setting: settings.project.reads, remaining: 7, resetAt: now + 59_001 },
  ],
};

afterEach(() => vi.useRealTimers());

describe("rateLimit", () => {
  it.each([
    ["served from a lease", () => allowed],
    ["after a renewal", () => Promise.resolve(allowed)],
  ])("charges the credential and its project, and sets both RateLimit fields, %s", async (_, answer) => {
    vi.useFakeTimers({ toFake: ["Date"], now });
    const { leases, asked } = leasesAnswering(answer);
    const { ctx, fields } = contextOf();
    const next = vi.fn(async () => undefined);

    await rateLimit(read, leases, settings)(ctx, next);

    expect(asked).toEqual([
      {
        leaseKey: "reads:prj_1:test:api_key:key_1",
        charges: [
          { scope: "credential-reads", setting: settings.credential.reads, key: "prj_1:test:api_key:key_1" },
          { scope: "project-reads", setting: settings.project.reads, key: "prj_1:test" },
        ],
      },
    ]);
    expect(fields).toEqual({
      "RateLimit-Policy": '"credential-reads";q=100;w=1, "project-reads";q=200;w=60',
      RateLimit: '"credential-reads";r=42;t=1, "project-reads";r=7;t=60',
    });
    expect(next).toHaveBeenCalledOnce();
  });

  it("refuses with RATE_LIMITED, Retry-After and both fields, and calls nothing after it", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now });
    const { leases } = leasesAnswering(() => ({ allowed: false, retryAfterSeconds: 3, limits: [{ ...allowed.limits[0], remaining: 0, resetAt: now + 2_500 }] }));
    const { ctx } = contextOf();
    const next = vi.fn(async () => undefined);

    await expect(rateLimit({ method: "POST" } as OperationSpec, leases, settings)(ctx, next)).rejects.toMatchObject({
      code: "RATE_LIMITED",
      headers: {
        "Retry-After": "3",
        "RateLimit-Policy": '"credential-writes";q=50;w=1, "project-writes";q=100;w=60',
        RateLimit: '"credential-reads";r=0;t=3',
      },
    });
    expect(next).not.toHaveBeenCalled();
  });

  it("lets a request through uncounted, with the policy only, while the store cannot write", async () => {
    const { leases } = leasesAnswering(() => Promise.reject(new StoreNotWritableError("disk full")));
    const { ctx, fields } = contextOf();
    const next = vi.fn(async () => undefined);

    await rateLimit(read, leases, settings)(ctx, next);

    expect(fields).toEqual({ "RateLimit-Policy": '"credential-reads";q=100;w=1, "project-reads";q=200;w=60' });
    expect(next).toHaveBeenCalledOnce();
  });
});
