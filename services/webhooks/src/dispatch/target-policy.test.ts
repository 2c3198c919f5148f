import { describe, expect, it } from "vitest";
import { guardedLookup, refusedAddress, TargetRefusedError, type ResolvedAddress } from "./target-policy.js";

const strict = { allowPrivate: false };
const permissive = { allowPrivate: true };

/** Whether WEBHOOKS_ALLOW_PRIVATE_TARGETS (a permissive policy) lets the address through. */
type Switch = "opened by the switch" | "refused whatever the switch";
const opened: Switch = "opened by the switch";
const closed: Switch = "refused whatever the switch";

describe("refusedAddress", () => {
  it.each<[string, string, Switch]>([
    ["169.254.169.254", "a cloud metadata address", closed],
    ["169.254.170.2", "a cloud metadata address", closed],
    ["169.254.170.23", "a cloud metadata address", closed],
    ["100.100.100.200", "a cloud metadata address", closed],
    ["192.0.0.192", "a cloud metadata address", closed],
    ["168.63.129.16", "a cloud metadata address", closed],
    ["fd00:ec2::254", "a cloud metadata address", closed],
    ["fd00:ec2::23", "a cloud metadata address", closed],
    ["fd20:ce::254", "a cloud metadata address", closed],
    ["169.254.10.1", "a link-local address", closed],
    ["fe80::1", "a link-local address", closed],
    ["febf:ffff::1", "a link-local address", closed],
    ["100.64.0.1", "a carrier-grade NAT address", closed],
    ["100.127.255.254", "a carrier-grade NAT address", closed],
    ["0.0.0.0", "an unspecified address", closed],
    ["0.1.2.3", "an unspecified address", closed],
    ["::", "an unspecified address", closed],
    ["224.0.0.1", "a multicast address", closed],
    ["ff02::1", "a multicast address", closed],
    ["255.255.255.255", "a reserved address", closed],
    ["240.0.0.1", "a reserved address", closed],
    ["192.0.0.8", "a reserved address", closed],
    ["198.18.0.1", "a reserved address", closed],
    ["fec0::1", "a reserved address", closed],
    ["127.0.0.1", "a loopback address", opened],
    ["127.255.0.9", "a loopback address", opened],
    ["::1", "a loopback address", opened],
    ["10.1.2.3", "a private address", opened],
    ["172.16.0.1", "a private address", opened],
    ["172.31.255.255", "a private address", opened],
    ["192.168.1.1", "a private address", opened],
    ["fc00::1", "a unique local address", opened],
    ["fd12:3456::1", "a unique local address", opened],
    // IPv6 addresses that lead to an IPv4 address, judged as that address.
    ["::ffff:127.0.0.1", "a loopback address (IPv4-mapped 127.0.0.1)", opened],
    ["::ffff:192.168.1.1", "a private address (IPv4-mapped 192.168.1.1)", opened],
    ["::ffff:169.254.169.254", "a cloud metadata address (IPv4-mapped 169.254.169.254)", closed],
    ["::ffff:0:a9fe:aa02", "a cloud metadata address (IPv4-translated 169.254.170.2)", closed],
    ["::7f00:1", "a loopback address (IPv4-compatible 127.0.0.1)", opened],
    ["::6464:64c8", "a cloud metadata address (IPv4-compatible 100.100.100.200)", closed],
    ["64:ff9b::a00:1", "a private address (NAT64 for 10.0.0.1)", opened],
    ["64:ff9b::127.0.0.1", "a loopback address (NAT64 for 127.0.0.1)", opened],
    ["64:ff9b::a9fe:a9fe", "a cloud metadata address (NAT64 for 169.254.169.254)", closed],
    ["64:ff9b::6440:1", "a carrier-grade NAT address (NAT64 for 100.64.0.1)", closed],
    ["64:ff9b:1::a9fe:a9fe", "a cloud metadata address (NAT64 for 169.254.169.254)", closed],
    // The local-use prefix as a /48: the IPv4 address sits around the u octet (RFC 6052). Read as a
    // /96 it is 0.0.0.0, so no switch opens an address written this way.
    ["64:ff9b:1:a9fe:a9:fe00::", "a cloud metadata address (NAT64 for 169.254.169.254)", closed],
    ["2002:a9fe:a9fe::1", "a cloud metadata address (6to4 for 169.254.169.254)", closed],
    ["2002:7f00:1::", "a loopback address (6to4 for 127.0.0.1)", opened],
    ["2002:a9fe:a01::", "a link-local address (6to4 for 169.254.10.1)", closed],
    // Teredo keeps the client's address inverted: 80ff:fffe is 127.0.0.1, 5601:5601 is 169.254.169.254.
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "a loopback address (Teredo client 127.0.0.1)", opened],
    ["2001:0:4136:e378:8000:63bf:5601:5601", "a cloud metadata address (Teredo client 169.254.169.254)", closed],
    ["2001:0:a00:1:8000:63bf:f7f7:f7f7", "a private address (Teredo server 10.0.0.1)", opened],
  ])("refuses %s as %s, %s", (address, what, switched) => {
    expect(refusedAddress(address, strict)).toBe(`${address} is ${what}`);
    expect(refusedAddress(address, permissive)).toBe(switched === opened ? undefined : `${address} is ${what}`);
  });

  it.each([
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "100.63.255.255",
    "168.63.129.17",
    "203.0.114.9",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "64:ff9b:1::808:808",
    "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
  ])("lets %s through, with or without the switch", (address) => {
    expect(refusedAddress(address, strict)).toBeUndefined();
    expect(refusedAddress(address, permissive)).toBeUndefined();
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
    "metadata.google.internal": [{ address: "169.254.169.254", family: 4 }],
    "credentials.example.ph": [{ address: "169.254.170.2", family: 4 }],
    "alibaba.example.ph": [{ address: "100.100.100.200", family: 4 }],
    "nat64.example.ph": [{ address: "64:ff9b::a9fe:a9fe", family: 6 }],
    "teredo.example.ph": [{ address: "2001:0:4136:e378:8000:63bf:5601:5601", family: 6 }],
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

  it("refuses a host resolving to a metadata, link-local or CGNAT address even with private targets allowed", async () => {
    for (const [hostname, message] of [
      ["metadata.google.internal", "refused: 169.254.169.254 is a cloud metadata address"],
      ["credentials.example.ph", "refused: 169.254.170.2 is a cloud metadata address"],
      ["alibaba.example.ph", "refused: 100.100.100.200 is a cloud metadata address"],
      ["nat64.example.ph", "refused: 64:ff9b::a9fe:a9fe is a cloud metadata address (NAT64 for 169.254.169.254)"],
      ["teredo.example.ph", "refused: 2001:0:4136:e378:8000:63bf:5601:5601 is a cloud metadata address (Teredo client 169.254.169.254)"],
    ] as const) {
      const { error } = await lookUp(guardedLookup(permissive, resolve), hostname, { all: true });
      expect(error).toBeInstanceOf(TargetRefusedError);
      expect(error!.message).toBe(message);
    }
  });

  it("lets a permissive policy reach a private host, and passes resolution failures on", async () => {
    expect(await lookUp(guardedLookup(permissive, resolve), "loopback.example.ph", {})).toMatchObject({ error: null, result: "::1", family: 6 });
    expect((await lookUp(guardedLookup(permissive, resolve), "metadata.example.ph", {})).error).toBeInstanceOf(TargetRefusedError);
    const { error } = await lookUp(guardedLookup(strict, resolve), "nowhere.example.ph", { all: true });
    expect(error).toMatchObject({ code: "ENOTFOUND" });
  });
});
