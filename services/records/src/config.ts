import { envSecret, type Env } from "@bayad/kit";

export interface RecordsConfig {
  /**
   * The HMAC key that signs listing cursors. Replicas behind one gateway must share it, or a
   * cursor issued by one is refused by the next; without it each process draws its own, which
   * only suits a single process (cursors then do not survive a restart).
   */
  cursorSecret: string;
}

/** Short keys can be guessed offline from one issued cursor. */
const MIN_SECRET_LENGTH = 32;

/** The records service's environment; a bad value throws a one-line ConfigError. */
export function readRecordsConfig(env: Env): RecordsConfig {
  return { cursorSecret: envSecret(env, "RECORDS_CURSOR_SECRET", MIN_SECRET_LENGTH).value };
}
