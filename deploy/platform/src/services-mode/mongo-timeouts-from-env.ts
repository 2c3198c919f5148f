import { ConfigError, envInt, type Env } from "@bayad/kit";
import { defaultMongoTimeouts, MongoConfigError, resolveMongoTimeouts, type MongoTimeouts } from "@bayad/store";

/** The environment variable of each MongoDB timeout (docs/operations/configuration.md). */
export const mongoTimeoutVariables: Readonly<Record<keyof MongoTimeouts, string>> = Object.freeze({
  serverSelectionTimeoutMs: "MONGODB_SERVER_SELECTION_TIMEOUT_MS",
  connectTimeoutMs: "MONGODB_CONNECT_TIMEOUT_MS",
  socketTimeoutMs: "MONGODB_SOCKET_TIMEOUT_MS",
  operationTimeoutMs: "MONGODB_OPERATION_TIMEOUT_MS",
  maxCommitTimeMs: "MONGODB_COMMIT_TIMEOUT_MS",
  transactionTimeoutMs: "MONGODB_TRANSACTION_TIMEOUT_MS",
});

const isTimeoutSetting = (setting: string): setting is keyof MongoTimeouts => Object.hasOwn(mongoTimeoutVariables, setting);

/**
 * The MongoDB store's timeouts from MONGODB_*_MS variables, each in milliseconds; unset ones keep
 * the store's defaults (`defaultMongoTimeouts`, sized to stay well inside the gateway's 10 s
 * deadline). A value out of range, or out of line with another (the store's checks), stops the
 * process with a ConfigError naming the variable, and the other variable it must be compared with.
 */
export function mongoTimeoutsFromEnv(env: Env): MongoTimeouts {
  const read = (setting: keyof MongoTimeouts): number => envInt(env, mongoTimeoutVariables[setting], defaultMongoTimeouts[setting], { min: 1, max: 600_000 });
  try {
    return resolveMongoTimeouts({
      serverSelectionTimeoutMs: read("serverSelectionTimeoutMs"),
      connectTimeoutMs: read("connectTimeoutMs"),
      socketTimeoutMs: read("socketTimeoutMs"),
      operationTimeoutMs: read("operationTimeoutMs"),
      maxCommitTimeMs: read("maxCommitTimeMs"),
      transactionTimeoutMs: read("transactionTimeoutMs"),
    });
  } catch (error) {
    if (!(error instanceof MongoConfigError) || !isTimeoutSetting(error.setting)) throw error;
    const problem = error.problem.replace(/\b[a-zA-Z]+Ms\b/g, (name) => (isTimeoutSetting(name) ? mongoTimeoutVariables[name] : name));
    throw new ConfigError(mongoTimeoutVariables[error.setting], problem);
  }
}
