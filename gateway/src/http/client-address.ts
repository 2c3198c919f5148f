import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";
import { ConfigError, envOptional, type Env } from "@bayad/kit";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * TRUST_PROXY: whose `X-Forwarded-For` the gateway believes. Off by default, because a client
 * talking to the gateway directly can write any address into that header. Behind a proxy, either
 * the number of proxies in front of the gateway (`1` for one ingress), or the proxies' addresses
 * (a comma list of addresses and CIDR ranges, IPv4 or IPv6).
 */
export type TrustProxy = { kind: "off" } | { kind: "hops"; hops: number } | { kind: "ranges"; ranges: Array<[Address, number]> };

const maxHops = 10;

/** Reads TRUST_PROXY; a value that is neither a hop count nor a list of addresses stops the process. */
export function readTrustProxy(env: Env): TrustProxy {
  const text = envOptional(env, "TRUST_PROXY");
  if (text === undefined || ["off", "false", "no", "0"].includes(text.toLowerCase())) return { kind: "off" };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > maxHops) throw new ConfigError("TRUST_PROXY", `must be a hop count from 1 to ${maxHops} or a list of proxy CIDRs, got "${text}"`);
    return { kind: "hops", hops };
  }
  const ranges = text.split(",").map((item) => {
    const range = parseRange(item.trim());
    if (!range) throw new ConfigError("TRUST_PROXY", `must be a hop count or a comma list of IP addresses / CIDR ranges, got "${item.trim()}"`);
    return range;
  });
  return { kind: "ranges", ranges };
}

function parseRange(text: string): [Address, number] | undefined {
  if (text.includes("/")) {
    if (!ipaddr.isValidCIDR(text)) return undefined;
    const [address, bits] = ipaddr.parseCIDR(text);
    return unmapped(address, bits);
  }
  const address = parseAddress(text);
  return address && [address, address.kind() === "ipv4" ? 32 : 128];
}

/** An IPv4-mapped IPv6 range (`::ffff:10.0.0.0/104`) as the IPv4 range it is, since addresses are compared unmapped. */
function unmapped(address: Address, bits: number): [Address, number] {
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [address, bits];
}

/**
 * A textual IP address, strictly: four decimal parts for IPv4 (not `127.1` or `0x7f.0.0.1`, which
 * ipaddr.js would also read), any IPv6 form. An IPv4-mapped IPv6 address is its IPv4 address.
 */
function parseAddress(text: string): Address | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!ipaddr.IPv6.isValid(text)) return undefined;
  const address = ipaddr.IPv6.parse(text);
  return address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

function inRanges(address: Address, ranges: Array<[Address, number]>): boolean {
  return ranges.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
}

/**
 * The client's address. The socket's peer unless TRUST_PROXY trusts it; then `X-Forwarded-For`
 * is walked from the right (the entry the nearest proxy appended), past every trusted hop, and the
 * first untrusted address is the client. Entries to its left were written by the client itself and
 * are never believed. A header holding anything but addresses (garbage, ports, `unknown`) is not
 * believed at all: the socket's peer is the client. IPv4-mapped IPv6 addresses are given as IPv4.
 */
export function clientAddressOf(trust: TrustProxy, socketAddress: string | undefined, forwardedFor: string | undefined): string {
  const socket = socketAddress === undefined ? undefined : parseAddress(socketAddress);
  if (!socket) return socketAddress ?? "unknown";
  if (trust.kind === "off" || forwardedFor === undefined || forwardedFor.trim() === "") return socket.toString();
  const forwarded = forwardedFor.split(",").map((entry) => parseAddress(entry.trim()));
  if (forwarded.some((entry) => entry === undefined)) return socket.toString();
  // Nearest first: the socket's peer, then the header from its right end.
  const chain = [socket, ...(forwarded as Address[]).reverse()];
  const trusted = (address: Address, hop: number) => (trust.kind === "hops" ? hop < trust.hops : inRanges(address, trust.ranges));
  const client = chain.find((address, hop) => !trusted(address, hop)) ?? chain[chain.length - 1];
  return client.toString();
}

/** The client address of a request (clientAddressOf its socket's peer and X-Forwarded-For; Node joins repeated headers). */
export function requestClientAddress(trust: TrustProxy, request: IncomingMessage): string {
  const forwardedFor = request.headers["x-forwarded-for"];
  return clientAddressOf(trust, request.socket.remoteAddress, Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor);
}

/**
 * What an IP-keyed limit counts: an IPv4 address, or the /64 of an IPv6 one, since one IPv6
 * subscriber is routinely given a whole /64 and could otherwise step through its addresses.
 */
export function addressGroup(address: string): string {
  const parsed = parseAddress(address);
  if (!parsed) return address;
  if (parsed.kind() === "ipv4") return parsed.toString();
  const { parts } = parsed as ipaddr.IPv6;
  return `${new ipaddr.IPv6([...parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}
