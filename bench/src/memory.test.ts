import { describe, expect, it } from "vitest";
import { parseRssSplit, procKibField } from "./memory.js";

describe("parseRssSplit", () => {
  const status = [
    "Name:\tnode",
    "VmHWM:\t  1048576 kB",
    "VmRSS:\t   409600 kB",
    "RssAnon:\t   204800 kB",
    "RssFile:\t   200704 kB",
    "RssShmem:\t     4096 kB",
    "Threads:\t11",
  ].join("\n");

  it("reads anonymous, file-backed and shared pages of /proc/<pid>/status, in bytes", () => {
    expect(parseRssSplit(status)).toEqual({ anonymous: 204800 * 1024, file: 200704 * 1024, shmem: 4096 * 1024 });
  });

  it("is null when the kernel does not split the RSS (before 4.5) or there is no /proc", () => {
    expect(parseRssSplit("Name:\tnode\nVmRSS:\t 409600 kB\n")).toBeNull();
    expect(parseRssSplit(status.replace(/^RssShmem:.*$/m, ""))).toBeNull();
    expect(parseRssSplit(undefined)).toBeNull();
  });
});

describe("procKibField", () => {
  it("takes the named field only, whole-line, in bytes", () => {
    expect(procKibField("VmHWM:\t  2048 kB\nVmRSS:\t 1024 kB\n", "VmRSS")).toBe(1024 * 1024);
    expect(procKibField("XVmRSS:\t 1024 kB\n", "VmRSS")).toBeUndefined();
  });
});
