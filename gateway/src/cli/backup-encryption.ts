import { open } from "node:fs/promises";
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { Decrypter, Encrypter } from "age-encryption";
import { BackupError } from "./backup-error.js";

/**
 * How a backup is kept from whoever gets the file: encrypted with age (age-encryption.org/v1,
 * the age-encryption package), to a passphrase (scrypt) or to recipients' X25519 public keys,
 * or, when the operator asks for it by name, not at all. A backup holds secrets.json, the keys
 * that open every sealed value of the data beside it, so a plain one gives everything away.
 */
export type BackupEncryption =
  | { kind: "passphrase"; passphrase: string }
  | { kind: "recipients"; recipients: readonly string[] }
  | { kind: "none" };

/** What a restore may open an encrypted backup with: a passphrase, or age identities (AGE-SECRET-KEY-1…). */
export interface BackupKeys {
  passphrase?: string;
  identities?: readonly string[];
}

/** How a backup file is written, as its first bytes say. */
export type ArchiveFormat = { kind: "age"; opensWith: "passphrase" | "identity" } | { kind: "gzip" } | { kind: "unknown" };

const ageHeader = "age-encryption.org/v1\n";
/** Enough of an age header to see its recipient stanzas (each a line of at most ~100 bytes). */
const headerProbeBytes = 4096;

export function encryptionName(encryption: BackupEncryption): "passphrase" | "recipient" | "none" {
  return encryption.kind === "recipients" ? "recipient" : encryption.kind;
}

/** Checks the recipients before any work is done: a typo should not cost a whole backup. */
export function checkRecipients(recipients: readonly string[]): void {
  for (const recipient of recipients) {
    try {
      new Encrypter().addRecipient(recipient);
    } catch {
      throw new BackupError(`"${recipient}" is not an age recipient (a public key age1…)`);
    }
  }
}

/** `plain` encrypted as `encryption` says, as a stream (age encrypts in 64 KiB chunks). */
export async function encryptedStream(plain: Readable, encryption: BackupEncryption): Promise<Readable> {
  if (encryption.kind === "none") return plain;
  const encrypter = new Encrypter();
  if (encryption.kind === "passphrase") encrypter.setPassphrase(encryption.passphrase);
  else for (const recipient of encryption.recipients) encrypter.addRecipient(recipient);
  const sealed = await encrypter.encrypt(Readable.toWeb(plain) as ReadableStream<Uint8Array>);
  return Readable.fromWeb(sealed as WebReadableStream<Uint8Array>);
}

/** Reads the start of `file`: age (and what opens it), gzip (an unencrypted backup), or neither. */
export async function archiveFormatOf(file: string): Promise<ArchiveFormat> {
  const handle = await open(file, "r");
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(headerProbeBytes);
    const { bytesRead } = await handle.read(buffer, 0, headerProbeBytes, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return { kind: "gzip" };
  const text = head.toString("latin1");
  if (!text.startsWith(ageHeader)) return { kind: "unknown" };
  // age writes a passphrase's scrypt stanza alone; any other stanza is a recipient's.
  const stanzas = text.split("\n").filter((line) => line.startsWith("-> ")).map((line) => line.split(" ")[1]);
  return { kind: "age", opensWith: stanzas.includes("scrypt") ? "passphrase" : "identity" };
}

/**
 * The plain archive of an age-encrypted `file`, as a stream. The header is checked before this
 * resolves (a wrong key fails here); each chunk is authenticated before it is passed on, and a
 * file altered or cut short fails the stream.
 */
export async function decryptedStream(file: string, format: Extract<ArchiveFormat, { kind: "age" }>, keys: BackupKeys): Promise<Readable> {
  const decrypter = new Decrypter();
  if (format.opensWith === "passphrase") {
    if (keys.passphrase === undefined) throw new BackupError(`${file} is encrypted with a passphrase: give it with --passphrase-file <file>`);
    decrypter.addPassphrase(keys.passphrase);
  } else {
    if (!keys.identities?.length) throw new BackupError(`${file} is encrypted to an age public key: give its identity with --identity-file <file>`);
    for (const identity of keys.identities) decrypter.addIdentity(identity);
  }
  const source = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  try {
    return Readable.fromWeb((await decrypter.decrypt(source)) as WebReadableStream<Uint8Array>);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (/no identity matched/.test(reason)) {
      throw new BackupError(`${file} does not open with the ${format.opensWith === "passphrase" ? "passphrase given" : "identities given"}`);
    }
    throw new BackupError(`${file} is damaged or was altered (${reason})`);
  }
}

/**
 * The identities of an age identity file (as `age-keygen` writes it): one AGE-SECRET-KEY-1… per
 * line, `#` comments and blank lines ignored.
 */
export function parseIdentities(text: string, file: string): string[] {
  const identities = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  if (identities.length === 0 || !identities.every((line) => /^AGE-SECRET-KEY-(PQ-)?1[0-9A-Z]+$/.test(line))) {
    throw new BackupError(`${file} is not an age identity file (lines of AGE-SECRET-KEY-1…)`);
  }
  for (const identity of identities) {
    try {
      new Decrypter().addIdentity(identity);
    } catch {
      throw new BackupError(`${file} holds an identity that is not valid`);
    }
  }
  return identities;
}

/** A passphrase as a file or standard input holds it: one line, its line break not part of it. */
export function parsePassphrase(text: string, from: string): string {
  const passphrase = text.replace(/\r?\n$/, "");
  if (passphrase === "") throw new BackupError(`${from} holds no passphrase`);
  return passphrase;
}
