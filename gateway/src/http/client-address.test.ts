import { describe, expect, it } from "vitest";
import { ConfigError } from "@bayad/kit";
import { addressGroup, clientAddressOf, readTrustProxy } from "./client-address.js";

const off = readTrustProxy({});
const oneHop = readTrustProxy({ TRUST_PROXY: "1" });
const twoHops = readTrustProxy({ TRUST_PROXY: "2" });
const ingress = readTrustProxy({ TRUST_PROXY: "10.0.0.0/8, fd00::/8" });

describe("readTrustProxy", () => {
  it("is off unless set, and reads a hop count or a list of addresses and ranges", () => {
    expect(off).toEqual({ kind: "off" });
    expect(readTrustProxy({ TRUST_PROXY: "off" })).toEqual({ kind: "off" });
    expect(oneHop).toEqual({ kind: "hops", hops: 1 });
    expect(readTrustProxy({ TRUST_PROXY: "192.0.2.10,2001:db8::1" }).kind).toBe("ranges");
  });

  it("stops on a value that is neither, naming TRUST_PROXY", () => {
    for (const value of ["yes please", "10.0.0.0/33", "10.0.0.0/8,nonsense", "127.1", "11"]) {
      expect(() => readTrustProxy({ TRUST_PROXY: value }), value).toThrow(ConfigError);
      expect(() => readTrustProxy({ TRUST_PROXY: value }), value).toThrow(/^TRUST_PROXY /);
    }
  });
});

describe("clientAddressOf", () => {
  it("ignores X-Forwarded-For when no proxy is trusted (the default)", () => {
    expect(clientAddressOf(off, "198.51.100.7", "203.0.113.9")).toBe("198.51.100.7");
  });

  it("gives IPv4-mapped socket addresses as IPv4", () => {
    expect(clientAddressOf(off, "::ffff:198.51.100.7", undefined)).toBe("198.51.100.7");
  });

  it("believes the entry the trusted proxy appended, with a hop count", () => {
    expect(clientAddressOf(oneHop, "10.1.2.3", "203.0.113.9")).toBe("203.0.113.9");
    expect(clientAddressOf(twoHops, "10.1.2.3", "203.0.113.9, 10.9.9.9")).toBe("203.0.113.9");
  });

  it("never believes the entries a client wrote itself to the left of what the proxies appended", () => {
    // The client sent "X-Forwarded-For: 1.1.1.1, 2.2.2.2"; the one proxy appended the real address.
    expect(clientAddressOf(oneHop, "10.1.2.3", "1.1.1.1, 2.2.2.2, 203.0.113.9")).toBe("203.0.113.9");
    expect(clientAddressOf(ingress, "10.1.2.3", "1.1.1.1, 203.0.113.9, 10.4.4.4")).toBe("203.0.113.9");
  });

  it("believes the header only from a socket peer within the trusted ranges, skipping every trusted hop", () => {
    expect(clientAddressOf(ingress, "10.1.2.3", "2001:db8::5, fd00::1")).toBe("2001:db8::5");
    expect(clientAddressOf(ingress, "198.51.100.7", "203.0.113.9")).toBe("198.51.100.7");
    // Every hop trusted: the leftmost is as far as anyone can tell.
    expect(clientAddressOf(ingress, "10.1.2.3", "10.7.7.7, 10.8.8.8")).toBe("10.7.7.7");
  });

  it("uses the socket's peer when the header is malformed", () => {
    for (const header of ["garbage", "203.0.113.9:4711", "unknown, 203.0.113.9", "203.0.113.9,,", "127.1"]) {
      expect(clientAddressOf(oneHop, "10.1.2.3", header), header).toBe("10.1.2.3");
    }
  });
});

describe("addressGroup", () => {
  it("counts an IPv6 address by its /64 and an IPv4 address (mapped or not) by itself", () => {
    expect(addressGroup("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressGroup("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressGroup("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressGroup("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressGroup("203.0.113.9")).toBe("203.0.113.9");
  });
});
