import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { apiClientFor, eventually, unique } from "../test-support/harness.js";
import { bannerOf, temporaryPlatforms, type PrintedBanner } from "../test-support/platform-process.js";

/**
 * `bayad backup` copies a running platform's DATA_DIR (every store from one snapshot, and
 * secrets.json) into one encrypted file while the platform goes on writing, and `bayad restore`
 * opens and unpacks it into a new DATA_DIR on which `npm start` finds everything again: the keys
 * and the data.
 */

/** The real CLI binary (`npm run admin`), built. */
const cliPath = createRequire(import.meta.url).resolve("@bayad/gateway").replace(/index\.js$/, "cli/main.js");
const execFileAsync = promisify(execFile);

/** Runs `bayad …` with only PATH in its environment: backup and restore need no admin key. */
async function bayad(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [cliPath, ...args], { env: { PATH: process.env.PATH ?? "" } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

const keysOf = ({ adminApiKey, testApiKey, projectId }: PrintedBanner) => ({ adminApiKey, testApiKey, projectId });
const records = "/api/v1/payments/records";

describe("bayad backup and restore", () => {
  const platforms = temporaryPlatforms("bayad-backup-");
  const start = (dataDir: string) => {
    // Limits no test writer reaches: it writes as fast as the platform answers while the backup runs.
    const unlimited = { RATE_LIMIT_CREDENTIAL_READS: "100000", RATE_LIMIT_CREDENTIAL_WRITES: "100000", RATE_LIMIT_PROJECT_READS: "100000", RATE_LIMIT_PROJECT_WRITES: "100000" };
    return platforms.launch({ DATA_DIR: dataDir, ...unlimited });
  };

  it("gives back, on a restored DATA_DIR, the keys and the data a running platform held when it was backed up", async () => {
    const dataDir = join(platforms.parent(), "data");
    const first = start(dataDir);
    const printedFirst = await bannerOf(first);
    const before = apiClientFor(printedFirst);

    const customer = await before.request("POST", "/api/v1/payments/customers", {
      body: { customerReference: unique("backup"), email: "maria@example.ph", name: "Maria Santos" },
    });
    expect(customer.status).toBe(201);
    const checkout = await before.request("POST", "/api/v1/payments/checkouts", {
      body: {
        referenceId: unique("order"),
        amount: { amountMinor: 1500_00, currency: "PHP" },
        successUrl: "https://shop.example.ph/ok",
        cancelUrl: "https://shop.example.ph/no",
      },
    });
    expect(checkout.status).toBe(201);
    const checkoutId = checkout.body.data.checkoutId as string;
    expect((await before.request("POST", `/api/v1/payments/test-helpers/checkouts/${checkoutId}/pay`)).status).toBe(200);
    const paid = await before.request("GET", `/api/v1/payments/checkouts/${checkoutId}`);
    const project = await before.newProject("Kape Delivery");
    // The records feed has the payment before the backup starts (it follows the payment by a moment).
    const record = await eventually(async () => {
      const page = await before.request("GET", `${records}?limit=200`);
      return (page.body.data.records as { id: string; status: string }[]).find((entry) => entry.id === checkoutId && entry.status === paid.body.data.status);
    }, 20_000);

    // Writes go on while the backup runs: the backup neither stops nor waits for the platform.
    let writing = true;
    const written: string[] = [];
    const writer = (async () => {
      while (writing) {
        const response = await before.request("POST", "/api/v1/payments/customers", {
          body: { customerReference: unique("during"), email: "juan@example.ph" },
        });
        expect(response.status).toBe(201);
        written.push(response.body.data.customerId as string);
      }
    })();
    await eventually(async () => (written.length >= 3 ? true : undefined));
    const writtenBefore = [...written];
    const backupFile = join(platforms.parent(), "backups", "bayad.age");
    mkdirSync(join(platforms.parent(), "backups"));
    const passphraseFile = join(platforms.parent(), "passphrase.txt");
    writeFileSync(passphraseFile, "kape at pandesal tuwing umaga\n", { mode: 0o600 });
    const backup = await bayad(["backup", "--to", backupFile, "--data-dir", dataDir, "--passphrase-file", passphraseFile]);
    const writtenDuring = written.length;
    await eventually(async () => (written.length >= writtenDuring + 3 ? true : undefined));
    writing = false;
    await writer;
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain("encrypted with the passphrase");
    // It holds the secrets: encrypted (age), and readable by its owner only.
    expect(readFileSync(backupFile).subarray(0, 22).toString()).toBe("age-encryption.org/v1\n");
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);

    // A restore never goes over a DATA_DIR: not the running platform's, nor any non-empty one.
    const onRunning = await bayad(["restore", "--from", backupFile, "--to", dataDir, "--passphrase-file", passphraseFile]);
    expect(onRunning.code).toBe(1);
    expect(onRunning.stderr).toContain(`in use by a Bayad process (pid ${first.child.pid})`);
    const occupied = join(platforms.parent(), "occupied");
    mkdirSync(occupied);
    writeFileSync(join(occupied, "notes.txt"), "keep me");
    const onOccupied = await bayad(["restore", "--from", backupFile, "--to", occupied, "--passphrase-file", passphraseFile]);
    expect(onOccupied.code).toBe(1);
    expect(onOccupied.stderr).toContain("is not empty");
    expect(statSync(join(occupied, "notes.txt")).isFile()).toBe(true);

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);

    const restoredDir = join(platforms.parent(), "restored");
    const restore = await bayad(["restore", "--from", backupFile, "--to", restoredDir, "--passphrase-file", passphraseFile]);
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(statSync(join(restoredDir, "secrets.json")).mode & 0o777).toBe(0o600);

    const second = start(restoredDir);
    const printed = await bannerOf(second);
    // The same admin key, test key and default project.
    expect(keysOf(printed)).toEqual(keysOf(printedFirst));
    const after = apiClientFor(printed);
    const readCustomer = await after.request("GET", `/api/v1/payments/customers/${customer.body.data.customerId}`);
    expect(readCustomer.status).toBe(200);
    expect(readCustomer.body.data).toEqual(customer.body.data);
    const readCheckout = await after.request("GET", `/api/v1/payments/checkouts/${checkoutId}`);
    expect(readCheckout.status).toBe(200);
    // The hosted page's URL names the new gateway's port (PORT=0); the rest is as it was.
    const withoutOrigin = ({ checkoutUrl, ...rest }: { checkoutUrl: string }) => ({ ...rest, checkoutPath: new URL(checkoutUrl).pathname + new URL(checkoutUrl).search });
    expect(withoutOrigin(readCheckout.body.data)).toEqual(withoutOrigin(paid.body.data));
    for (const id of writtenBefore) expect((await after.request("GET", `/api/v1/payments/customers/${id}`)).status).toBe(200);
    // The records feed holds the payment.
    const feed = await after.request("GET", `${records}?limit=200`);
    expect(feed.status).toBe(200);
    expect((feed.body.data.records as { id: string }[]).filter((entry) => entry.id === checkoutId)).toEqual([record]);
    // The API key made before the backup works, and the admin key opens the project it belongs to.
    expect((await after.request("GET", `/api/v1/payments/customers/${customer.body.data.customerId}`, { credential: project.testKey })).status).toBe(404);
    expect((await after.request("GET", records, { credential: project.testKey })).status).toBe(200);
    expect((await after.admin("GET", `/admin/v1/projects/${project.projectId}/api-keys`)).status).toBe(200);
  }, 90_000);

  it("refuses a file that is not a backup, and leaves nothing behind", async () => {
    const bogus = join(platforms.parent(), "bogus.tgz");
    writeFileSync(bogus, "not an archive");
    const target = join(platforms.parent(), "restored");
    const outcome = await bayad(["restore", "--from", bogus, "--to", target]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain("is not a readable Bayad backup");
    expect(() => statSync(target)).toThrow();
  });

  it("refuses a directory that is not a DATA_DIR, and a file that exists", async () => {
    const empty = join(platforms.parent(), "empty");
    mkdirSync(empty);
    const notDataDir = await bayad(["backup", "--to", join(platforms.parent(), "b.tgz"), "--data-dir", empty, "--unencrypted"]);
    expect(notDataDir.code).toBe(1);
    expect(notDataDir.stderr).toContain("holds no secrets.json");
    const dataDir = join(platforms.parent(), "data");
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, "secrets.json"), "{}");
    const earlier = join(platforms.parent(), "earlier.tgz");
    writeFileSync(earlier, "an earlier backup");
    const overwrite = await bayad(["backup", "--to", earlier, "--data-dir", dataDir, "--unencrypted"]);
    expect(overwrite.code).toBe(1);
    expect(overwrite.stderr).toContain("exists: choose another file");
    expect(readFileSync(earlier, "utf8")).toBe("an earlier backup");
    const usage = await bayad(["backup"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--to is required");
  });
});
