import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Where a webhook may be sent. Bayad posts to URLs its users choose, from inside its own network,
 * so without this a user could make it reach loopback services, the private network or a cloud's
 * metadata endpoint (server-side request forgery). Every address a target resolves to is checked
 * when the connection is made (so a DNS answer that changes between a check and the connection
 * cannot pass), and IP literals are checked directly.
 */

interface Range {
  /** Why an address in it is refused: "<address> is <what>". */
  what: string;
  /** Whether WEBHOOKS_ALLOW_PRIVATE_TARGETS lets test-mode endpoints reach it. */
  privateTarget: boolean;
  subnets: Array<[network: string, prefix: number, type: "ipv4" | "ipv6"]>;
}

/** Checked in order: an address is refused for the first range it falls in. */
const ranges: Range[] = [
  {
    what: "a cloud metadata address",
    privateTarget: false,
    subnets: [
      ["169.254.169.254", 32, "ipv4"],
      ["fd00:ec2::254", 128, "ipv6"],
    ],
  },
  {
    what: "a loopback address",
    privateTarget: true,
    subnets: [
      ["127.0.0.0", 8, "ipv4"],
      ["::1", 128, "ipv6"],
    ],
  },
  {
    what: "an unspecified address",
    privateTarget: false,
    subnets: [
      ["0.0.0.0", 8, "ipv4"],
      ["::", 128, "ipv6"],
    ],
  },
  {
    what: "a private address",
    privateTarget: true,
    subnets: [
      ["10.0.0.0", 8, "ipv4"],
      ["172.16.0.0", 12, "ipv4"],
      ["192.168.0.0", 16, "ipv4"],
    ],
  },
  {
    what: "a link-local address",
    privateTarget: true,
    subnets: [
      ["169.254.0.0", 16, "ipv4"],
      ["fe80::", 10, "ipv6"],
    ],
  },
  { what: "a carrier-grade NAT address", privateTarget: true, subnets: [["100.64.0.0", 10, "ipv4"]] },
  { what: "a unique local address", privateTarget: true, subnets: [["fc00::", 7, "ipv6"]] },
  {
    what: "a multicast address",
    privateTarget: false,
    subnets: [
      ["224.0.0.0", 4, "ipv4"],
      ["ff00::", 8, "ipv6"],
    ],
  },
  {
    what: "a reserved address",
    privateTarget: false,
    subnets: [
      ["192.0.0.0", 24, "ipv4"],
      ["198.18.0.0", 15, "ipv4"],
      ["240.0.0.0", 4, "ipv4"],
      // IPv4-compatible IPv6 (deprecated): ::a.b.c.d. IPv4-mapped ones (::ffff:a.b.c.d) are
      // checked as their IPv4 address by BlockList itself.
      ["::", 96, "ipv6"],
    ],
  },
];

const checked = ranges.map((range) => {
  const list = new BlockList();
  for (const [network, prefix, type] of range.subnets) list.addSubnet(network, prefix, type);
  return { ...range, list };
});

/** NAT64's well-known prefix: the last 32 bits are an IPv4 address, checked as that address. */
const nat64 = new BlockList();
nat64.addSubnet("64:ff9b::", 96, "ipv6");

function embeddedIpv4(address: string): string | undefined {
  if (isIP(address) !== 6 || !nat64.check(address, "ipv6")) return undefined;
  const groups = expandIpv6(address);
  const high = groups[6];
  const low = groups[7];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included). */
function expandIpv6(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const middle = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16));
}

export interface TargetPolicy {
  /** Whether loopback, private, link-local, CGNAT and unique local addresses may be reached. */
  allowPrivate: boolean;
}

/**
 * Why `address` (an IP address) may not be reached under `policy`, as "<address> is <what>", or
 * undefined when it may.
 */
export function refusedAddress(address: string, policy: TargetPolicy): string | undefined {
  const type = isIP(address);
  if (type === 0) return `${address} is not an IP address`;
  const family = type === 4 ? "ipv4" : "ipv6";
  for (const range of checked) {
    if (range.list.check(address, family)) return range.privateTarget && policy.allowPrivate ? undefined : `${address} is ${range.what}`;
  }
  const ipv4 = embeddedIpv4(address);
  return ipv4 === undefined ? undefined : refusedAddress(ipv4, policy)?.replace(ipv4, address);
}

/** An address a webhook may not reach: the connection is not made. */
export class TargetRefusedError extends Error {
  readonly code = "ERR_WEBHOOK_TARGET_REFUSED";
  constructor(reason: string) {
    super(`refused: ${reason}`);
    this.name = "TargetRefusedError";
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (the system resolver by default). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, order: "verbatim" });

/**
 * The `lookup` a socket connects with: it resolves the host and fails with TargetRefusedError when
 * ANY of its addresses is refused (a host with one public and one private address is not
 * reachable at all: which one a connection would use is not ours to pick). The socket connects
 * only to the addresses checked here, so a DNS answer cannot change between check and use.
 */
export function guardedLookup(policy: TargetPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    const reply = callback;
    resolve(hostname).then(
      (resolved) => {
        const addresses = options.family === 4 || options.family === 6 ? resolved.filter((entry) => entry.family === options.family) : resolved;
        for (const { address } of resolved) {
          const refusal = refusedAddress(address, policy);
          if (refusal) return reply(new TargetRefusedError(refusal), options.all ? [] : "");
        }
        const first = addresses[0];
        if (!first) return reply(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), options.all ? [] : "");
        if (options.all) return reply(null, addresses);
        return reply(null, first.address, first.family);
      },
      (error: unknown) => reply(error instanceof Error ? error : new Error(String(error)), options.all ? [] : ""),
    );
  };
}

/** The host of a URL as an IP address when it is one (brackets of IPv6 literals removed), else undefined. */
export function ipLiteralOf(url: URL): string | undefined {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) === 0 ? undefined : host;
}

/** Host names that always mean this machine (RFC 6761), whatever DNS says. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}
