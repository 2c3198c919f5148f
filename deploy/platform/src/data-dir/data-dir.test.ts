import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, createLogger } from "@bayad/kit";
import { openDataDir } from "./data-dir.js";
import { lockFileName } from "./data-dir-lock.js";
import { unreapedZombie } from "../test-support/zombie-process.js";

/** A pid that ran and has exited (and been reaped): what a lock left by a killed platform names. */
function goneProcessPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid!;
}

describe("openDataDir", () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), "bayad-data-dir-unit-")), "data");
  });
  afterEach(() => rmSync(join(dir, ".."), { recursive: true, force: true }));

  it("takes over a lock left by a process that is gone, and names itself in it", async () => {
    const first = await openDataDir(dir);
    await first.close();
    writeFileSync(join(dir, lockFileName), `${goneProcessPid()}\n`);
    const data = await openDataDir(dir);
    expect(readFileSync(join(dir, lockFileName), "utf8")).toBe(`${process.pid}\n`);
    await data.close();
  });

  it.runIf(process.platform === "linux")("takes over a lock naming a zombie and says so in the log", async () => {
    await (await openDataDir(dir)).close();
    const zombie = await unreapedZombie();
    try {
      writeFileSync(join(dir, lockFileName), `${zombie.pid}\n`);
      const lines: string[] = [];
      const data = await openDataDir(dir, [], createLogger("bayad", "info", { write: (line: string) => void lines.push(line) }));
      await data.close();
      expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
        expect.objectContaining({
          level: 30,
          dataDir: dir,
          holder: { pid: zombie.pid, sign: "zombie", waitedMs: 0 },
          msg: `DATA_DIR ${dir} was held by pid ${zombie.pid}, a zombie (exited, not yet reaped): taken over at once`,
        }),
      ]);
    } finally {
      zombie.parent.kill("SIGKILL");
    }
  });

  it("refuses a DATA_DIR held by a running process, naming its pid, and lets it go once released", async () => {
    const data = await openDataDir(dir);
    await expect(openDataDir(dir)).rejects.toThrow(new ConfigError("DATA_DIR", `${dir} is in use by another Bayad process (pid ${process.pid}): stop it, or set DATA_DIR to another directory`));
    await data.close();
    expect(() => statSync(join(dir, lockFileName))).toThrow(/ENOENT/);
    await (await openDataDir(dir)).close();
  });

  it("draws each unset secret once and keeps it in a file only its owner may read; a set variable wins and is not kept", async () => {
    const data = await openDataDir(dir);
    const drawn = await data.secretsFor(["ADMIN_API_KEY", "GATEWAY_SECRET"], { GATEWAY_SECRET: "x".repeat(40) });
    expect(Object.keys(drawn)).toEqual(["ADMIN_API_KEY"]);
    expect(drawn.ADMIN_API_KEY).toMatch(/^adm_[0-9A-Za-z]{32}$/);
    await data.keepDefaultProject({ projectId: "prj_kept", testApiKey: "sk_test_kept" });
    await data.close();

    const file = join(dir, "secrets.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ secrets: drawn, defaultProject: { projectId: "prj_kept", testApiKey: "sk_test_kept" } });
    const again = await openDataDir(dir);
    expect(await again.secretsFor(["ADMIN_API_KEY"], {})).toEqual(drawn);
    expect(again.defaultProject).toEqual({ projectId: "prj_kept", testApiKey: "sk_test_kept" });
    await again.close();
  });

  it("leaves a single-key secret out while its key ring variable is set, and keeps what it drew for when the ring goes", async () => {
    const data = await openDataDir(dir);
    const kept = await data.secretsFor(["SECRETS_KEY"], {});
    expect(await data.secretsFor(["SECRETS_KEY", "GATEWAY_SECRET"], { SECRETS_KEYS: `k2:${"n".repeat(40)}`, GATEWAY_SECRETS: `g2:${"g".repeat(40)}` })).toEqual({});
    expect(await data.secretsFor(["SECRETS_KEY"], {})).toEqual(kept);
    await data.close();
  });

  it("makes a directory for each component's store", async () => {
    const data = await openDataDir(dir, ["gateway", "payments"]);
    expect(statSync(join(dir, "gateway")).isDirectory()).toBe(true);
    expect(statSync(join(dir, "payments")).isDirectory()).toBe(true);
    await data.close();
  });
});
