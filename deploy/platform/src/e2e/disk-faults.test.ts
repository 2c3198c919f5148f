import { execFileSync } from "node:child_process";
import { mkdtempSync, rmdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillDisk, mountSmallTmpfs } from "@bayad/store/testing";
import { apiClientFor, eventually, prerequisiteMet, unique } from "../test-support/harness.js";
import { bannerOf, launchPlatform, type PlatformProcess } from "../test-support/platform-process.js";

/**
 * A full disk under npm start's DATA_DIR (issue 28 item 5): the platform runs as a child process
 * on a 16 MiB tmpfs, which a filler file then fills. Writes answer 503 STORE_UNAVAILABLE and
 * store nothing, reads go on, /readyz is 503; once the filler is removed the platform writes and
 * is ready again without a restart. Needs root to mount the tmpfs.
 */
const mountPoint = mkdtempSync(join(tmpdir(), "bayad-full-data-dir-"));
const mountRefusal = mountSmallTmpfs(mountPoint, "16m");

const customer = () => ({ customerReference: unique("disk"), email: "maria@example.ph", name: "Maria Santos" });

if (mountRefusal !== undefined) rmdirSync(mountPoint);

if (prerequisiteMet("disk faults under DATA_DIR", mountRefusal)) {
  describe("npm start on a full disk", () => {
    const filler = join(mountPoint, "filler");
    let platform: PlatformProcess | undefined;

    beforeAll(() => {
      platform = launchPlatform({ PORT: "0", METRICS_PORT: "0", DATA_DIR: join(mountPoint, "data") });
    });

    afterAll(async () => {
      if (platform !== undefined) {
        platform.child.kill("SIGKILL");
        await platform.exited;
      }
      execFileSync("umount", ["-l", mountPoint]);
      rmdirSync(mountPoint);
    });

    it("answers writes 503 STORE_UNAVAILABLE and reads 200, is not ready, and recovers by itself when space returns", async () => {
      const printed = await bannerOf(platform!);
      const api = apiClientFor(printed);
      const before = await api.request("POST", "/api/v1/payments/customers", { body: customer() });
      expect(before.status).toBe(201);
      const customerPath = `/api/v1/payments/customers/${before.body.data.customerId}`;
      // A key not used yet holds no rate-limit lease: its first read must count in the gateway's store.
      const secondKey = await api.admin("POST", `/admin/v1/projects/${printed.projectId}/api-keys`, { environment: "test" });
      expect(secondKey.status).toBe(201);
      const secondApi = apiClientFor({ ...printed, testApiKey: secondKey.body.data.apiKey });

      fillDisk(filler);
      // A small commit may still fit in pages LMDB freed earlier: write until the disk tells.
      let refused: { key: string; body: ReturnType<typeof customer>; response: Awaited<ReturnType<typeof api.request>> } | undefined;
      for (let attempt = 0; attempt < 200 && refused === undefined; attempt++) {
        const key = unique("disk-key");
        const body = customer();
        const response = await api.request("POST", "/api/v1/payments/customers", { body, idempotencyKey: key });
        if (response.status === 503) refused = { key, body, response };
        else expect(response.status, JSON.stringify(response.body)).toBe(201);
      }
      expect(refused, "no write was refused on a full disk").toBeDefined();
      expect(refused!.response.body.success).toBe(false);
      expect(refused!.response.body.error.code).toBe("STORE_UNAVAILABLE");
      expect(refused!.response.body.meta.correlationId).toBe(refused!.response.headers.get("X-Correlation-Id"));

      // The gateway's own store refuses writes too (projects live there): a 503, never a 500.
      let gatewayRefusal: Awaited<ReturnType<typeof api.request>> | undefined;
      for (let attempt = 0; attempt < 200 && gatewayRefusal === undefined; attempt++) {
        const created = await api.admin("POST", "/admin/v1/projects", { name: `Filler ${attempt} ${"x".repeat(180)}` });
        if (created.status === 503) gatewayRefusal = created;
        else expect(created.status, platform!.output().slice(-3000)).toBe(201);
      }
      expect(gatewayRefusal?.body.error.code).toBe("STORE_UNAVAILABLE");
      // A read still passes the rate limiter, which cannot count while the gateway's store is full.
      const uncounted = await secondApi.request("GET", customerPath);
      expect(uncounted.status, JSON.stringify(uncounted.body)).toBe(200);

      // Reads go on; the platform says it is not ready (and is still alive).
      const read = await api.request("GET", customerPath);
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual(before.body.data);
      const notReady = await api.request("GET", "/readyz", { credential: null });
      expect(notReady.status).toBe(503);
      expect(notReady.body.error.code).toBe("SERVICE_UNAVAILABLE");
      expect((await api.request("GET", "/healthz", { credential: null })).status).toBe(200);
      const stillRefused = await api.request("POST", "/api/v1/payments/customers", { body: customer() });
      expect(stillRefused.status).toBe(503);
      expect(stillRefused.body.error.code).toBe("STORE_UNAVAILABLE");

      // Space returns: ready again and writing, with no restart.
      rmSync(filler);
      await eventually(async () => ((await api.request("GET", "/readyz", { credential: null })).status === 200 ? true : undefined), 20_000);
      const after = await api.request("POST", "/api/v1/payments/customers", { body: customer() });
      expect(after.status).toBe(201);
      // The refused request's key was left free or to be reconciled: its retry settles, once.
      const retried = await eventually(async () => {
        const response = await api.request("POST", "/api/v1/payments/customers", { body: refused!.body, idempotencyKey: refused!.key });
        return response.status === 201 ? response : undefined;
      }, 20_000);
      expect(retried.body.data.customerReference).toBe(refused!.body.customerReference);
      expect(platform!.child.exitCode).toBeNull();
    }, 90_000);
  });
}
