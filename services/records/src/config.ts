import { envInt, envSecret, type Env } from "@bayad/kit";

export interface RecordsConfig {
  /**
   * The HMAC key that signs listing cursors. Replicas behind one gateway must share it, or a
   * cursor issued by one is refused by the next; without it each process draws its own, which
   * only suits a single process (cursors then do not survive a restart).
   */
  cursorSecret: string;
  /**
   * RECORDS_BATCH_SIZE (default 64, 1–1000): the most events the consumer projects in one store
   * transaction, so a backlog or a burst costs one commit (and one disk flush on the embedded
   * store) per batch instead of per event. A batch never waits to fill up; a larger bound only
   * lets one failing event send more of its neighbours back for redelivery with it.
   */
  batchSize: number;
}

/** RECORDS_BATCH_SIZE when unset. */
export const DEFAULT_BATCH_SIZE = 64;

/** Short keys can be guessed offline from one issued cursor. */
const MIN_SECRET_LENGTH = 32;

/** The records service's environment; a bad value throws a one-line ConfigError. */
export function readRecordsConfig(env: Env): RecordsConfig {
  return {
    cursorSecret: envSecret(env, "RECORDS_CURSOR_SECRET", MIN_SECRET_LENGTH).value,
    batchSize: envInt(env, "RECORDS_BATCH_SIZE", DEFAULT_BATCH_SIZE, { min: 1, max: 1000 }),
  };
}
