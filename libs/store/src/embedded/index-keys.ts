import { isDocument } from "./bson-values.js";

/**
 * Index entries as LMDB keys: bytes whose order (LMDB compares keys with memcmp) is the order of
 * `compareValues`, field by field in each field's direction, then the document's `_id`.
 *
 * Each value is a type tag, in BSON's type order (null and missing < numbers < strings < objects
 * < arrays < booleans < dates), followed by an order-preserving body:
 *   - numbers: the IEEE 754 double with the sign bit flipped (negatives: every bit flipped), so the
 *     bytes sort as the numbers do; -0 is written as 0 and NaN as eight zero bytes, below every
 *     other number, which is how BSON compares them;
 *   - dates: their milliseconds, the same way;
 *   - strings: UTF-8 (code point order, as MongoDB compares strings), each 0x00 byte written as
 *     0x00 0xFF and the end as 0x00 0x00, so no encoding is a prefix of another;
 *   - booleans: one byte;
 *   - objects: per field its value's tag, its name (as a string), its value; then 0x00, so fields
 *     compare as BSON compares them (type, name, value) and fewer fields sort first;
 *   - arrays: the elements, then 0x00.
 * Every encoding is prefix-free, so a descending field is its bytes inverted, and concatenating
 * fields keeps the order of the first field that differs. The `_id` (UTF-8) comes last, as is.
 *
 * Scan bounds: the bytes of a prefix of field values sort before every key that starts with them,
 * and the same bytes followed by 0xFF after every one (what follows a complete field is a tag, at
 * most 0xFA inverted, or UTF-8, which never holds 0xFF).
 */

const TAG_NULL = 0x05;
const TAG_NUMBER = 0x10;
const TAG_STRING = 0x20;
const TAG_OBJECT = 0x30;
const TAG_ARRAY = 0x40;
const TAG_BOOLEAN = 0x50;
const TAG_DATE = 0x60;
const END = 0x00;

/** Appends bytes to a buffer that grows as needed. */
class KeyWriter {
  buffer = Buffer.allocUnsafe(256);
  length = 0;

  reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  byte(value: number): void {
    this.reserve(1);
    this.buffer[this.length++] = value;
  }

  bytes(source: Uint8Array): void {
    this.reserve(source.length);
    this.buffer.set(source, this.length);
    this.length += source.length;
  }

  /** Inverts the bytes written since `from` (a descending field). */
  invertFrom(from: number): void {
    for (let i = from; i < this.length; i++) this.buffer[i] = ~(this.buffer[i]) & 0xff;
  }

  /** A copy of what was written (the writer's buffer is reused). */
  take(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.length));
  }
}

const writer = new KeyWriter();
const scratch = new DataView(new ArrayBuffer(8));

/** The first bytes of every entry of one index: its id, big-endian. */
export function indexPrefix(indexId: number): Buffer {
  const prefix = Buffer.allocUnsafe(4);
  prefix.writeUInt32BE(indexId);
  return prefix;
}

/**
 * The bytes of `values` (one per leading field of the index, in the fields' `directions`) after
 * `prefix`; with `id`, a whole entry key, else a scan bound (`upper`: after every key it starts).
 */
export function encodeKey(
  prefix: Uint8Array,
  values: readonly unknown[],
  directions: readonly (1 | -1)[],
  id?: string,
  upper = false,
): Buffer {
  writer.length = 0;
  writer.bytes(prefix);
  for (let i = 0; i < values.length; i++) {
    const start = writer.length;
    writeValue(values[i]);
    if (directions[i] === -1) writer.invertFrom(start);
  }
  if (id !== undefined) writeUtf8(id);
  if (upper) writer.byte(0xff);
  return writer.take();
}

/** The document key: the collection's id, then the `_id` in UTF-8 (so `_id` order is key order). */
export function documentKey(collectionId: number, id: string): Buffer {
  writer.length = 0;
  writer.reserve(4);
  writer.buffer.writeUInt32BE(collectionId, 0);
  writer.length = 4;
  writeUtf8(id);
  return writer.take();
}

function writeValue(value: unknown): void {
  if (value === null || value === undefined) writer.byte(TAG_NULL);
  else if (typeof value === "number") {
    writer.byte(TAG_NUMBER);
    writeSortableDouble(value);
  } else if (typeof value === "string") {
    writer.byte(TAG_STRING);
    writeString(value);
  } else if (typeof value === "boolean") {
    writer.byte(TAG_BOOLEAN);
    writer.byte(value ? 1 : 0);
  } else if (value instanceof Date) {
    writer.byte(TAG_DATE);
    writeSortableDouble(value.getTime());
  } else if (Array.isArray(value)) {
    writer.byte(TAG_ARRAY);
    for (const item of value) writeValue(item);
    writer.byte(END);
  } else if (isDocument(value)) {
    writer.byte(TAG_OBJECT);
    for (const [name, field] of Object.entries(value)) {
      if (field === undefined) continue;
      writer.byte(tagOf(field));
      writeString(name);
      writeValue(field);
    }
    writer.byte(END);
  } else {
    throw new Error(`A ${typeof value} cannot be stored in an index`);
  }
}

function tagOf(value: unknown): number {
  if (value === null || value === undefined) return TAG_NULL;
  if (typeof value === "number") return TAG_NUMBER;
  if (typeof value === "string") return TAG_STRING;
  if (typeof value === "boolean") return TAG_BOOLEAN;
  if (value instanceof Date) return TAG_DATE;
  if (Array.isArray(value)) return TAG_ARRAY;
  return TAG_OBJECT;
}

function writeSortableDouble(value: number): void {
  writer.reserve(8);
  if (Number.isNaN(value)) {
    writer.buffer.fill(0, writer.length, writer.length + 8);
  } else {
    scratch.setFloat64(0, value === 0 ? 0 : value);
    const negative = (scratch.getUint8(0) & 0x80) !== 0;
    for (let i = 0; i < 8; i++) {
      const byte = scratch.getUint8(i);
      writer.buffer[writer.length + i] = negative ? ~byte & 0xff : i === 0 ? byte ^ 0x80 : byte;
    }
  }
  writer.length += 8;
}

function writeUtf8(text: string): number {
  writer.reserve(text.length * 3);
  const written = writer.buffer.write(text, writer.length, "utf8");
  writer.length += written;
  return written;
}

function writeString(text: string): void {
  const start = writer.length;
  const written = writeUtf8(text);
  if (text.includes("\0")) {
    // Rare: escape each 0x00 as 0x00 0xFF, working from the end so each shift moves only the tail.
    const zeros = writer.buffer.subarray(start, start + written).filter((byte) => byte === 0).length;
    writer.reserve(zeros);
    let to = start + written + zeros;
    for (let from = start + written - 1; from >= start; from--) {
      const byte = writer.buffer[from];
      if (byte === 0) writer.buffer[--to] = 0xff;
      writer.buffer[--to] = byte;
    }
    writer.length += zeros;
  }
  writer.byte(END);
  writer.byte(END);
}

/**
 * Where the `_id` of an entry key starts: after `prefixLength` bytes and `fields` encoded values
 * (a field's first byte tells whether it is inverted: tags are below 0x80, inverted ones above).
 */
export function idOffset(key: Uint8Array, prefixLength: number, fields: number): number {
  let at = prefixLength;
  for (let i = 0; i < fields; i++) at = skipValue(key, at, (key[at]) >= 0x80 ? 0xff : 0);
  return at;
}

function skipValue(key: Uint8Array, at: number, mask: number): number {
  const tag = (key[at]) ^ mask;
  at++;
  switch (tag) {
    case TAG_NULL:
      return at;
    case TAG_NUMBER:
    case TAG_DATE:
      return at + 8;
    case TAG_BOOLEAN:
      return at + 1;
    case TAG_STRING:
      return skipString(key, at, mask);
    case TAG_ARRAY:
      while (((key[at]) ^ mask) !== END) at = skipValue(key, at, mask);
      return at + 1;
    case TAG_OBJECT:
      while (((key[at]) ^ mask) !== END) at = skipValue(key, skipString(key, at + 1, mask), mask);
      return at + 1;
    default:
      throw new Error(`Not an index key: tag ${tag} at byte ${at - 1}`);
  }
}

function skipString(key: Uint8Array, at: number, mask: number): number {
  for (;;) {
    if (((key[at]) ^ mask) !== 0) at++;
    else if (((key[at + 1]) ^ mask) === 0) return at + 2;
    else at += 2;
  }
}
