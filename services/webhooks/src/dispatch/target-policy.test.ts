import { describe, expect, it } from "vitest";
import { guardedLookup, refusedAddress, TargetRefusedError, type ResolvedAddress } from "./target-policy.js";

const strict = { allowPrivate: false };
const permissive = { allowPrivate: true };

describe("refusedAddress", () => {
  it.each([
    ["127.0.0.1", "a loopback address"],
    ["127.255.0.9", "a loopback address"],
    ["::1", "a loopback address"],
    ["::ffff:127.0.0.1", "a loopback address"],
    ["10.1.2.3", "a private address"],
    ["172.16.0.1", "a private address"],
    ["172.31.255.255", "a private address"],
    ["192.168.1.1", "a private address"],
    ["::ffff:192.168.1.1", "a private address"],
    ["169.254.169.254", "a cloud metadata address"],
    ["::ffff:169.254.169.254", "a cloud metadata address"],
    ["fd00:ec2::254", "a cloud metadata address"],
    ["169.254.10.1", "a link-local address"],
    ["fe80::1", "a link-local address"],
    ["100.64.0.1", "a carrier-grade NAT address"],
    ["100.127.255.254", "a carrier-grade NAT address"],
    ["fc00::1", "a unique local address"],
    ["fd12:3456::1", "a unique local address"],
    ["0.0.0.0", "an unspecified address"],
    ["::", "an unspecified address"],
    ["224.0.0.1", "a multicast address"],
    ["ff02::1", "a multicast address"],
    ["255.255.255.255", "a reserved address"],
    ["64:ff9b::a00:1", "a private address"],
    ["64:ff9b::127.0.0.1", "a loopback address"],
  ])("refuses %s as %s", (address, what) => {
    expect(refusedAddress(address, strict)).toBe(`${address} is ${what}`);
  });

  it.each(["8.8.8.8", "172.32.0.1", "100.128.0.1", "203.0.114.9", "2606:4700:4700::1111", "64:ff9b::808:808", "::ffff:8.8.8.8"])("lets %s through", (address) => {
    expect(refusedAddress(address, strict)).toBeUndefined();
  });

  it("lets a test-mode endpoint with private targets allowed reach loopback and private addresses, never metadata or multicast", () => {
    for (const address of ["127.0.0.1", "::1", "10.0.0.1", "192.168.0.10", "169.254.3.4", "100.64.1.1", "fd00::1"]) {
      expect(refusedAddress(address, permissive), address).toBeUndefined();
    }
    expect(refusedAddress("169.254.169.254", permissive)).toBe("169.254.169.254 is a cloud metadata address");
    expect(refusedAddress("fd00:ec2::254", permissive)).toBe("fd00:ec2::254 is a cloud metadata address");
    expect(refusedAddress("224.0.0.1", permissive)).toBe("224.0.0.1 is a multicast address");
    expect(refusedAddress("0.0.0.0", permissive)).toBe("0.0.0.0 is an unspecified address");
  });
});

/** Calls a lookup function as a socket would, with `all` set (Happy Eyeballs) or not. */
function lookUp(lookup: ReturnType<typeof guardedLookup>, hostname: string, options: { all?: boolean; family?: number }) {
  return new Promise<{ error: Error | null; result: unknown; family?: number }>((resolve) => {
    (lookup as (host: string, options: object, callback: (...args: unknown[]) => void) => void)(hostname, options, (error, result, family) =>
      resolve({ error: error as Error | null, result, family: family as number | undefined }),
    );
  });
}

describe("guardedLookup", () => {
  const resolverOf = (answers: Record<string, ResolvedAddress[]>) => async (hostname: string) => {
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return found;
  };
  const resolve = resolverOf({
    "hooks.example.ph": [
      { address: "203.0.113.10", family: 4 },
      { address: "2001:db8::10", family: 6 },
    ],
    "rebound.example.ph": [
      { address: "203.0.113.10", family: 4 },
      { address: "10.0.0.5", family: 4 },
    ],
    "metadata.example.ph": [{ address: "169.254.169.254", family: 4 }],
    "loopback.example.ph": [{ address: "::1", family: 6 }],
  });

  it("answers every address of a host whose addresses may all be reached", async () => {
    const lookup = guardedLookup(strict, resolve);
    expect(await lookUp(lookup, "hooks.example.ph", { all: true })).toMatchObject({
      error: null,
      result: [
        { address: "203.0.113.10", family: 4 },
        { address: "2001:db8::10", family: 6 },
      ],
    });
    expect(await lookUp(lookup, "hooks.example.ph", {})).toMatchObject({ error: null, result: "203.0.113.10", family: 4 });
    expect(await lookUp(lookup, "hooks.example.ph", { family: 6 })).toMatchObject({ error: null, result: "2001:db8::10", family: 6 });
  });

  it("refuses a host when any of its addresses may not be reached, so no connection is made", async () => {
    const lookup = guardedLookup(strict, resolve);
    for (const [hostname, message] of [
      ["rebound.example.ph", "refused: 10.0.0.5 is a private address"],
      ["metadata.example.ph", "refused: 169.254.169.254 is a cloud metadata address"],
      ["loopback.example.ph", "refused: ::1 is a loopback address"],
    ] as const) {
      for (const options of [{ all: true }, {}]) {
        const { error } = await lookUp(lookup, hostname, options);
        expect(error).toBeInstanceOf(TargetRefusedError);
        expect(error!.message).toBe(message);
      }
    }
  });

  it("lets a permissive policy reach a private host, and passes resolution failures on", async () => {
    expect(await lookUp(guardedLookup(permissive, resolve), "loopback.example.ph", {})).toMatchObject({ error: null, result: "::1", family: 6 });
    expect((await lookUp(guardedLookup(permissive, resolve), "metadata.example.ph", {})).error).toBeInstanceOf(TargetRefusedError);
    const { error } = await lookUp(guardedLookup(strict, resolve), "nowhere.example.ph", { all: true });
    expect(error).toMatchObject({ code: "ENOTFOUND" });
  });
});
