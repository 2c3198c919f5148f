import { readFile } from "node:fs/promises";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { BackupError } from "./backup-error.js";
import { checkRecipients, parsePassphrase, parseIdentities, type BackupEncryption, type BackupKeys } from "./backup-encryption.js";
import { UsageError, describe, optional, reportFailure, required, type CliIo, type Values } from "./cli-support.js";
import { backupDataDir, restoreDataDir } from "./data-dir-backup.js";

/** DATA_DIR's default, as `npm start` resolves it (deploy/platform/src/data-dir). */
const defaultDataDir = ".bayad";

const backupOptions: NonNullable<ParseArgsConfig["options"]> = {
  to: { type: "string" },
  "data-dir": { type: "string" },
  "passphrase-file": { type: "string" },
  recipient: { type: "string", multiple: true },
  unencrypted: { type: "boolean" },
  json: { type: "boolean" },
};

const restoreOptions: NonNullable<ParseArgsConfig["options"]> = {
  from: { type: "string" },
  to: { type: "string" },
  "passphrase-file": { type: "string" },
  "identity-file": { type: "string", multiple: true },
  json: { type: "boolean" },
};

/**
 * `backup` and `restore`: files on this machine, no gateway involved. Keys come from files (or a
 * passphrase from standard input, `--passphrase-file -`), never from the command line, where
 * the process list would show them; recipients are public keys and may be named there.
 */
export async function runDataDirCommand(
  name: "backup" | "restore",
  args: readonly string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  let values: Values;
  try {
    values = parseArgs({ args: [...args], options: name === "backup" ? backupOptions : restoreOptions, strict: true, allowPositionals: false }).values;
    required(values, name === "backup" ? "to" : "from");
    required(values, "to");
    if (name === "backup") {
      const chosen = [optional(values, "passphrase-file"), listOf(values, "recipient").length > 0 || undefined, values.unencrypted || undefined];
      if (chosen.filter(Boolean).length > 1) throw new UsageError("give one of --passphrase-file, --recipient and --unencrypted");
    }
  } catch (error) {
    return reportFailure(error, io);
  }
  const json = values.json === true;
  try {
    if (name === "backup") {
      const encryption = await encryptionOf(values, io);
      const dataDir = optional(values, "data-dir") ?? (env.DATA_DIR?.trim() || defaultDataDir);
      const outcome = await backupDataDir(dataDir, required(values, "to"), encryption);
      if (json) io.out(JSON.stringify(outcome, null, 2));
      else io.out(`Backed up ${storesText(outcome.stores)} and secrets.json to ${outcome.file} (${outcome.bytes} bytes), ${encryptedText(encryption)}.`);
      if (encryption.kind === "none") {
        io.err(`warning: ${outcome.file} is not encrypted: it holds the platform's secrets and admin key in clear (secrets.json). Keep it private.`);
      } else if (!json) {
        io.out("It holds the platform's secrets and admin key: keep the file private, and its key apart from it.");
      }
    } else {
      const outcome = await restoreDataDir(required(values, "from"), required(values, "to"), await keysOf(values, io));
      if (json) {
        io.out(JSON.stringify(outcome, null, 2));
      } else {
        io.out(`Restored ${storesText(outcome.stores)} and secrets.json into ${outcome.dir}.`);
        io.out(`Start on it with DATA_DIR=${outcome.dir} npm start.`);
      }
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) return reportFailure(error, io);
    io.err(`error: ${error instanceof BackupError ? error.message : describe(error)}`);
    return 1;
  }
}

/** How `backup` was asked to encrypt; refused when it was not asked at all. */
async function encryptionOf(values: Values, io: CliIo): Promise<BackupEncryption> {
  const passphraseFile = optional(values, "passphrase-file");
  if (passphraseFile !== undefined) return { kind: "passphrase", passphrase: parsePassphrase(await readKeyFile(passphraseFile, io), passphraseFile) };
  const recipients = listOf(values, "recipient");
  if (recipients.length > 0) {
    checkRecipients(recipients);
    return { kind: "recipients", recipients };
  }
  if (values.unencrypted === true) return { kind: "none" };
  throw new BackupError(
    "a backup holds the platform's secrets and admin key: encrypt it with --passphrase-file <file> or --recipient <age1…>, or pass --unencrypted to write them in clear",
  );
}

/** What `restore` may open an encrypted backup with. */
async function keysOf(values: Values, io: CliIo): Promise<BackupKeys> {
  const passphraseFile = optional(values, "passphrase-file");
  const identityFiles = listOf(values, "identity-file");
  const identities: string[] = [];
  for (const file of identityFiles) identities.push(...parseIdentities(await readKeyFile(file, io), file));
  return {
    ...(passphraseFile === undefined ? {} : { passphrase: parsePassphrase(await readKeyFile(passphraseFile, io), passphraseFile) }),
    ...(identities.length > 0 ? { identities } : {}),
  };
}

/** A key file's text; "-" is standard input. */
async function readKeyFile(file: string, io: CliIo): Promise<string> {
  if (file === "-") {
    const notPiped = new UsageError("pipe the passphrase to standard input with --passphrase-file -, or give a file");
    if (!io.readStdin) throw notPiped;
    return io.readStdin().catch((error: unknown) => {
      throw error instanceof UsageError ? notPiped : error;
    });
  }
  return readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new BackupError(`cannot read ${file} (${error.code ?? error.message})`);
  });
}

function listOf(values: Values, name: string): string[] {
  const value = values[name];
  return (Array.isArray(value) ? value : []).filter((item): item is string => typeof item === "string" && item.trim() !== "").map((item) => item.trim());
}

function encryptedText(encryption: BackupEncryption): string {
  if (encryption.kind === "passphrase") return "encrypted with the passphrase (age)";
  if (encryption.kind === "recipients") return `encrypted to ${encryption.recipients.length === 1 ? "the age recipient" : `${encryption.recipients.length} age recipients`}`;
  return "not encrypted";
}

/** "6 stores (billing, gateway, …)", or "no store" (a DATA_DIR whose stores are in MongoDB). */
function storesText(stores: readonly string[]): string {
  return stores.length === 0 ? "no store" : `${stores.length} store${stores.length === 1 ? "" : "s"} (${stores.join(", ")})`;
}
