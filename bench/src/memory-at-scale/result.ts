import type { Row } from "../row.js";

/** The platform process's memory at one moment, in bytes, after two forced full collections on each thread. */
export interface ProcessMemory {
  /** V8 heap in use, the main thread's and the services thread's (memory.ts readMemory). */
  heapUsed: number;
  rss: number;
  /** Anonymous memory (process-memory.ts); null where /proc cannot tell. */
  anonymous: number | null;
}

/** One start of the platform on the seeded DATA_DIR, and what it measured. */
export interface Phase {
  /** Checkouts stored (seeded) when the platform started. */
  checkouts: number;
  /** From forking the platform's process to its first /readyz 200. */
  startToReadyMs: number;
  /** Right after it was ready. */
  atReady: ProcessMemory;
  /** After the records-page run below: the data has been read, the code paths compiled. */
  afterPages: ProcessMemory;
  /** `GET /api/v1/payments/records?limit=50`, warmed up then measured like scenario 5. */
  page: Row;
  /** The payment records the records service holds (counted after the readings). */
  recordsStored: number;
  /** `du` of the payments and records stores (what the checkouts occupy), in bytes. */
  storesDiskBytes: number;
  /** `du` of the whole DATA_DIR, in bytes. */
  dataDirDiskBytes: number;
}

/** One seeding step: checkouts written straight into the stopped platform's stores. */
export interface Seeding {
  checkouts: number;
  seconds: number;
}

/** The memory-at-scale section: the platform started empty, at the small size, and at `checkouts`. */
export interface MemoryAtScaleResult {
  /** The size the targets are judged at (`--memory-checkouts`). */
  checkouts: number;
  empty: Phase;
  /** At 10 000 checkouts (fewer when `checkouts` is): the records page's reference. */
  small: Phase;
  large: Phase;
  seeding: Seeding[];
}
