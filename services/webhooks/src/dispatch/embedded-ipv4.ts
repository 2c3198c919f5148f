import ipaddr from "ipaddr.js";

/** An IPv4 address that traffic to an IPv6 address reaches, and the mechanism that carries it there. */
export interface EmbeddedIpv4 {
  ipv4: string;
  /** How the IPv6 address carries it, as a refusal names it: "NAT64 for", "Teredo client", … */
  how: string;
}

const prefix = (cidr: string) => ipaddr.IPv6.parseCIDR(cidr);

const mapped = prefix("::ffff:0:0/96");
const translated = prefix("::ffff:0:0:0/96");
const compatible = prefix("::/96");
const wellKnownNat64 = prefix("64:ff9b::/96");
const localNat64 = prefix("64:ff9b:1::/48");
const sixToFour = prefix("2002::/16");
const teredo = prefix("2001::/32");

const ipv4Of = (bytes: number[]) => bytes.join(".");

/**
 * Where RFC 6052 puts the IPv4 address for each prefix length a local-use NAT64 prefix
 * (64:ff9b:1::/48) may have: the operator picks the length, which the address does not say, so
 * every layout it is well formed for (byte 8 and the suffix zero) is a reading to judge, and
 * the address is reachable only when every reading is.
 */
const nat64Layouts: Array<{ ipv4: number[]; zero: number[] }> = [
  { ipv4: [6, 7, 9, 10], zero: [8, 11, 12, 13, 14, 15] },
  { ipv4: [7, 9, 10, 11], zero: [8, 12, 13, 14, 15] },
  { ipv4: [9, 10, 11, 12], zero: [8, 13, 14, 15] },
  { ipv4: [12, 13, 14, 15], zero: [] },
];

/**
 * The IPv4 addresses an IPv6 address leads to: IPv4-mapped, -translated and -compatible forms,
 * NAT64 (the well-known 64:ff9b::/96 and the local-use 64:ff9b:1::/48), 6to4 (2002::/16) and
 * Teredo (2001::/32: the server, and the client's address stored inverted). Such an address is
 * as reachable as the IPv4 address inside, so it is judged as that address. `::` and `::1` are
 * not IPv4-compatible addresses and give none.
 */
export function embeddedIpv4(address: ipaddr.IPv6): EmbeddedIpv4[] {
  const bytes = address.toByteArray();
  const last = ipv4Of(bytes.slice(12));
  if (address.match(mapped)) return [{ ipv4: last, how: "IPv4-mapped" }];
  if (address.match(translated)) return [{ ipv4: last, how: "IPv4-translated" }];
  if (address.match(compatible)) return bytes.slice(12, 15).every((byte) => byte === 0) && bytes[15] <= 1 ? [] : [{ ipv4: last, how: "IPv4-compatible" }];
  if (address.match(wellKnownNat64)) return [{ ipv4: last, how: "NAT64 for" }];
  if (address.match(localNat64)) {
    return nat64Layouts
      .filter((layout) => layout.zero.every((index) => bytes[index] === 0))
      .map((layout) => ({ ipv4: ipv4Of(layout.ipv4.map((index) => bytes[index])), how: "NAT64 for" }));
  }
  if (address.match(sixToFour)) return [{ ipv4: ipv4Of(bytes.slice(2, 6)), how: "6to4 for" }];
  if (address.match(teredo)) {
    return [
      { ipv4: ipv4Of(bytes.slice(12).map((byte) => byte ^ 0xff)), how: "Teredo client" },
      { ipv4: ipv4Of(bytes.slice(4, 8)), how: "Teredo server" },
    ];
  }
  return [];
}
