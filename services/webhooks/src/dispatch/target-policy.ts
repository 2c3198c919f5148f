import { lookup as dnsLookup } from "node:dns/promises";
import { setTimeout as delay } from "node:timers/promises";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { embeddedIpv4 } from "./embedded-ipv4.js";

/**
 * Where a webhook may be sent. Bayad posts to URLs its users choose, from inside its own network,
 * so without this a user could make it reach loopback services, the private network or a cloud's
 * metadata endpoint (server-side request forgery). Every address a target resolves to is checked
 * when the connection is made (so a DNS answer that changes between a check and the connection
 * cannot pass), and IP literals are checked directly.
 */

/** Every address a metadata service answers on: what a cloud gives its machines credentials from. */
const metadataAddresses = [
  "169.254.169.254/32", // AWS, Azure, GCP (metadata.google.internal), Oracle, OpenStack, DigitalOcean, …
  "169.254.170.2/32", // AWS ECS task credentials
  "169.254.170.23/32", // AWS EKS Pod Identity
  "100.100.100.200/32", // Alibaba Cloud
  "192.0.0.192/32", // Oracle Cloud (legacy)
  "168.63.129.16/32", // Azure WireServer: a public address, so nothing else would refuse it
  "fd00:ec2::254/128", // AWS IMDS over IPv6
  "fd00:ec2::23/128", // AWS EKS Pod Identity over IPv6
  "fd20:ce::254/128", // GCP metadata over IPv6
];

interface Range {
  /** Why an address in it is refused: "<address> is <what>". */
  what: string;
  /**
   * Whether WEBHOOKS_ALLOW_PRIVATE_TARGETS lets test-mode endpoints reach it: loopback, RFC 1918
   * and unique local addresses only, where a developer's receiver runs. Link-local and CGNAT
   * ranges hold metadata and platform services, so no switch opens them.
   */
  privateTarget: boolean;
  cidrs: string[];
}

/** Checked in order: an address is refused for the first range it falls in. */
const ranges: Range[] = [
  { what: "a cloud metadata address", privateTarget: false, cidrs: metadataAddresses },
  { what: "a loopback address", privateTarget: true, cidrs: ["127.0.0.0/8", "::1/128"] },
  { what: "an unspecified address", privateTarget: false, cidrs: ["0.0.0.0/8", "::/128"] },
  { what: "a private address", privateTarget: true, cidrs: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"] },
  { what: "a unique local address", privateTarget: true, cidrs: ["fc00::/7"] },
  { what: "a link-local address", privateTarget: false, cidrs: ["169.254.0.0/16", "fe80::/10"] },
  { what: "a carrier-grade NAT address", privateTarget: false, cidrs: ["100.64.0.0/10"] },
  { what: "a multicast address", privateTarget: false, cidrs: ["224.0.0.0/4", "ff00::/8"] },
  {
    what: "a reserved address",
    privateTarget: false,
    // IETF protocol assignments, benchmarking, class E and broadcast; IPv6 site-local (deprecated, still private) and discard.
    cidrs: ["192.0.0.0/24", "198.18.0.0/15", "240.0.0.0/4", "fec0::/10", "100::/64"],
  },
];

const rangeList: Record<string, Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>> = Object.fromEntries(
  ranges.map((range) => [range.what, range.cidrs.map((cidr) => ipaddr.parseCIDR(cidr))]),
);
const switchable = new Set(ranges.filter((range) => range.privateTarget).map((range) => range.what));
const REACHABLE = "reachable";

export interface TargetPolicy {
  /** Whether loopback, RFC 1918 private and unique local addresses may be reached. */
  allowPrivate: boolean;
}

/** What `address` is when `policy` refuses it, else undefined. */
function refusedAs(address: ipaddr.IPv4 | ipaddr.IPv6, policy: TargetPolicy): string | undefined {
  const what = ipaddr.subnetMatch(address, rangeList, REACHABLE);
  return what === REACHABLE || (policy.allowPrivate && switchable.has(what)) ? undefined : what;
}

/**
 * Why `address` (an IP address) may not be reached under `policy`, as "<address> is <what>", or
 * undefined when it may. An IPv6 address that leads to an IPv4 one (mapped, NAT64, 6to4,
 * Teredo) is refused as that IPv4 address would be.
 */
export function refusedAddress(address: string, policy: TargetPolicy): string | undefined {
  if (isIP(address) === 0) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  const what = refusedAs(parsed, policy);
  if (what !== undefined) return `${address} is ${what}`;
  if (parsed.kind() === "ipv4") return undefined;
  for (const { ipv4, how } of embeddedIpv4(parsed as ipaddr.IPv6)) {
    const inside = refusedAs(ipaddr.IPv4.parse(ipv4), policy);
    if (inside !== undefined) return `${address} is ${inside} (${how} ${ipv4})`;
  }
  return undefined;
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

/** How long registration waits for a host name's addresses before leaving the judgement to delivery. */
const REGISTRATION_LOOKUP_MS = 3_000;

/**
 * Why a host name may not be reached, judged by every address it resolves to now, or undefined.
 * A name that does not resolve (yet, or not in time) is not refused here: each delivery resolves
 * it again and judges what it gets then.
 */
export async function refusedHost(hostname: string, policy: TargetPolicy, resolve: Resolver): Promise<string | undefined> {
  const timer = new AbortController();
  const gaveUp = delay(REGISTRATION_LOOKUP_MS, [], { signal: timer.signal }).catch(() => []);
  let resolved: ResolvedAddress[];
  try {
    resolved = await Promise.race([resolve(hostname), gaveUp]);
  } catch {
    return undefined;
  } finally {
    timer.abort();
  }
  for (const { address } of resolved) {
    const refusal = refusedAddress(address, policy);
    if (refusal) return `${refusal} (an address of ${hostname})`;
  }
  return undefined;
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
