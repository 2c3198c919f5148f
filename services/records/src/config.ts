import { ConfigError, envOptional, randomBase62 } from "@bayad/kit";

export interface RecordsConfig {
  /**
   * The HMAC key that signs listing cursors. Replicas behind one gateway must share it, or a
   * cursor issued by one is refused by the next; without it each process draws its own, which
   * only suits a single process (cursors then do not survive a restart).
   */
  cursorSecret: string;
}

type Env = Record<string, string | undefined>;

/** Short keys can be guessed offline from one issued cursor. */
const MIN_SECRET_LENGTH = 32;

/** The records service's environment; a bad value throws a one-line ConfigError. */
export function readRecordsConfig(env: Env): RecordsConfig {
  const secret = envOptional(env, "RECORDS_CURSOR_SECRET");
  if (secret !== undefined && secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError("RECORDS_CURSOR_SECRET", `must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  return { cursorSecret: secret ?? randomBase62(43) };
}
