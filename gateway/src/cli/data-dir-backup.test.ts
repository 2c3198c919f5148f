import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { generateX25519Identity, identityToRecipient } from "age-encryption";
import { createEmbeddedStore } from "@bayad/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliIo } from "./main.js";

/**
 * `bayad backup` encrypts with age (a passphrase or recipients' public keys) unless told
 * `--unencrypted`; `bayad restore` sees which the file is and opens it, or writes nothing.
 */

function capture(stdin?: string): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
    ...(stdin === undefined ? {} : { readStdin: async () => stdin }),
  };
}

const bayad = async (argv: string[], stdin?: string) => {
  const io = capture(stdin);
  const code = await runCli(argv, {}, fetch, io);
  return { code, stdout: io.stdout.join("\n"), stderr: io.stderr.join("\n") };
};

/** What secrets.json holds in the fixture: a value that must never show in an encrypted file. */
const secretsJson = JSON.stringify({ secrets: { SECRETS_KEY: "fixture-secrets-key-7f3a9c1e" } });
const customer = { _id: "cus_backup_fixture", name: "Maria Santos" };

let root: string;
let dataDir: string;
let passphraseFile: string;
let identityFile: string;
let recipient: string;
/** Made once (scrypt is slow on purpose): one backup per kind of key. */
let withPassphrase: string;
let withRecipient: string;

const scratch = (name: string) => join(mkdtempSync(join(root, "case-")), name);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "bayad-backup-encryption-"));
  dataDir = join(root, "data");
  const store = createEmbeddedStore({ path: join(dataDir, "payments") });
  await store.collection<typeof customer>({ name: "customers" }).insertOne(customer);
  await store.close();
  writeFileSync(join(dataDir, "secrets.json"), secretsJson, { mode: 0o600 });

  passphraseFile = join(root, "passphrase.txt");
  writeFileSync(passphraseFile, "correct horse battery staple\n", { mode: 0o600 });
  const identity = await generateX25519Identity();
  recipient = await identityToRecipient(identity);
  identityFile = join(root, "identity.txt");
  // As age-keygen writes it: comments, then the key.
  writeFileSync(identityFile, `# created: 2030-01-01T00:00:00Z\n# public key: ${recipient}\n${identity}\n`, { mode: 0o600 });

  withPassphrase = join(root, "with-passphrase.age");
  withRecipient = join(root, "with-recipient.age");
  const [byPassphrase, byRecipient] = await Promise.all([
    bayad(["backup", "--to", withPassphrase, "--data-dir", dataDir, "--passphrase-file", passphraseFile]),
    bayad(["backup", "--to", withRecipient, "--data-dir", dataDir, "--recipient", recipient]),
  ]);
  expect(byPassphrase).toMatchObject({ code: 0, stderr: "" });
  expect(byRecipient).toMatchObject({ code: 0, stderr: "" });
}, 30_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The restored DATA_DIR holds secrets.json and the store as they were. */
async function expectRestored(dir: string): Promise<void> {
  expect(readFileSync(join(dir, "secrets.json"), "utf8")).toBe(secretsJson);
  const store = createEmbeddedStore({ path: join(dir, "payments") });
  try {
    expect(await store.collection<typeof customer>({ name: "customers" }).findOne({ _id: customer._id })).toEqual(customer);
  } finally {
    await store.close();
  }
}

/** Nothing at `dir`, and nothing left beside it (no staging directory). */
function expectNothingWritten(dir: string): void {
  expect(existsSync(dir)).toBe(false);
  expect(readdirSync(join(dir, ".."))).toEqual([]);
}

describe("bayad backup, encrypted", () => {
  it("writes an age file, readable by its owner only, in which nothing of the data is readable", () => {
    for (const file of [withPassphrase, withRecipient]) {
      const bytes = readFileSync(file);
      expect(bytes.subarray(0, 22).toString()).toBe("age-encryption.org/v1\n");
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(bytes.includes("fixture-secrets-key")).toBe(false);
      expect(() => gunzipSync(bytes)).toThrow();
    }
    expect(readFileSync(withPassphrase, "latin1")).toContain("\n-> scrypt ");
    expect(readFileSync(withRecipient, "latin1")).toContain("\n-> X25519 ");
  });

  it("restores with the passphrase, from a file or from standard input", async () => {
    const fromFile = scratch("restored");
    const restored = await bayad(["restore", "--from", withPassphrase, "--to", fromFile, "--passphrase-file", passphraseFile, "--json"]);
    expect(restored).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(restored.stdout)).toEqual({ dir: fromFile, stores: ["payments"], encryption: "passphrase" });
    await expectRestored(fromFile);

    const fromStdin = scratch("restored");
    expect(await bayad(["restore", "--from", withPassphrase, "--to", fromStdin, "--passphrase-file", "-"], "correct horse battery staple\n")).toMatchObject({ code: 0 });
    await expectRestored(fromStdin);
  }, 30_000);

  it("restores with the identity file of the recipient it was encrypted to", async () => {
    const dir = scratch("restored");
    const restored = await bayad(["restore", "--from", withRecipient, "--to", dir, "--identity-file", identityFile]);
    expect(restored).toMatchObject({ code: 0, stderr: "" });
    expect(restored.stdout).toContain(`Restored 1 store (payments) and secrets.json into ${dir}.`);
    await expectRestored(dir);
  });

  it("refuses, without a key or --unencrypted, naming the options, and writes nothing", async () => {
    const file = scratch("backup.age");
    const refused = await bayad(["backup", "--to", file, "--data-dir", dataDir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--passphrase-file <file> or --recipient <age1…>, or pass --unencrypted");
    expectNothingWritten(file);
  });

  it("refuses two kinds of key at once, and a recipient that is not an age public key", async () => {
    const file = scratch("backup.age");
    const both = await bayad(["backup", "--to", file, "--data-dir", dataDir, "--passphrase-file", passphraseFile, "--recipient", recipient]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("give one of --passphrase-file, --recipient and --unencrypted");
    const typo = await bayad(["backup", "--to", file, "--data-dir", dataDir, "--recipient", "age1notakey"]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toBe('error: "age1notakey" is not an age recipient (a public key age1…)');
    expectNothingWritten(file);
  });
});

describe("bayad backup --unencrypted", () => {
  it("writes a plain archive, saying that it holds the secrets and admin key in clear; restore needs no key", async () => {
    const file = scratch("backup.tgz");
    const backup = await bayad(["backup", "--to", file, "--data-dir", dataDir, "--unencrypted", "--json"]);
    expect(backup.code).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ file, stores: ["payments"], encryption: "none" });
    expect(backup.stderr).toBe(`warning: ${file} is not encrypted: it holds the platform's secrets and admin key in clear (secrets.json). Keep it private.`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(gunzipSync(readFileSync(file)).includes("fixture-secrets-key")).toBe(true);

    const dir = scratch("restored");
    expect(await bayad(["restore", "--from", file, "--to", dir])).toMatchObject({ code: 0, stderr: "" });
    await expectRestored(dir);
  });
});

describe("bayad restore of an encrypted backup", () => {
  it("asks for what the file needs: its passphrase, or an identity", async () => {
    const dir = scratch("restored");
    const noPassphrase = await bayad(["restore", "--from", withPassphrase, "--to", dir]);
    expect(noPassphrase).toMatchObject({ code: 1, stderr: `error: ${withPassphrase} is encrypted with a passphrase: give it with --passphrase-file <file>` });
    const noIdentity = await bayad(["restore", "--from", withRecipient, "--to", dir, "--passphrase-file", passphraseFile]);
    expect(noIdentity).toMatchObject({ code: 1, stderr: `error: ${withRecipient} is encrypted to an age public key: give its identity with --identity-file <file>` });
    expectNothingWritten(dir);
  });

  it("refuses a wrong passphrase or identity in one line, and writes nothing", async () => {
    const dir = scratch("restored");
    const wrongPassphrase = join(root, "wrong-passphrase.txt");
    writeFileSync(wrongPassphrase, "incorrect horse\n");
    const wrong = await bayad(["restore", "--from", withPassphrase, "--to", dir, "--passphrase-file", wrongPassphrase]);
    expect(wrong).toMatchObject({ code: 1, stderr: `error: ${withPassphrase} does not open with the passphrase given` });

    const otherIdentity = join(root, "other-identity.txt");
    writeFileSync(otherIdentity, `${await generateX25519Identity()}\n`);
    const other = await bayad(["restore", "--from", withRecipient, "--to", dir, "--identity-file", otherIdentity]);
    expect(other).toMatchObject({ code: 1, stderr: `error: ${withRecipient} does not open with the identities given` });
    expect(wrong.stdout + other.stdout).not.toContain("horse");
    expectNothingWritten(dir);
  }, 30_000);

  it("refuses an altered or cut file, and writes nothing", async () => {
    const bytes = readFileSync(withRecipient);
    const altered = scratch("altered.age");
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(flipped.length / 2)]! ^= 0x01;
    writeFileSync(altered, flipped);
    const cut = join(altered, "..", "cut.age");
    writeFileSync(cut, bytes.subarray(0, bytes.length - 100));

    for (const file of [altered, cut]) {
      const dir = join(root, `restored-from-${file === cut ? "cut" : "altered"}`);
      const refused = await bayad(["restore", "--from", file, "--to", dir, "--identity-file", identityFile]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(new RegExp(`^error: ${file} is damaged or was altered \\(.+\\)$`));
      expect(existsSync(dir)).toBe(false);
    }
    expect(readdirSync(root).filter((name) => name.includes("restoring"))).toEqual([]);
  });
});
