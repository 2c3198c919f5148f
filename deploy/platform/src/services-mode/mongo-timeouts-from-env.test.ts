import { describe, expect, it } from "vitest";
import { ConfigError } from "@bayad/kit";
import { defaultMongoTimeouts } from "@bayad/store";
import { mongoTimeoutsFromEnv } from "./mongo-timeouts-from-env.js";

describe("mongoTimeoutsFromEnv", () => {
  it("keeps the store's defaults when no variable is set", () => {
    expect(mongoTimeoutsFromEnv({})).toEqual(defaultMongoTimeouts);
  });

  it("reads each MONGODB_*_TIMEOUT_MS variable into its setting", () => {
    expect(
      mongoTimeoutsFromEnv({
        MONGODB_SERVER_SELECTION_TIMEOUT_MS: "2000",
        MONGODB_CONNECT_TIMEOUT_MS: "1500",
        MONGODB_SOCKET_TIMEOUT_MS: "3000",
        MONGODB_OPERATION_TIMEOUT_MS: "1200",
        MONGODB_COMMIT_TIMEOUT_MS: "1100",
        MONGODB_TRANSACTION_TIMEOUT_MS: "2500",
      }),
    ).toEqual({
      serverSelectionTimeoutMs: 2000,
      connectTimeoutMs: 1500,
      socketTimeoutMs: 3000,
      operationTimeoutMs: 1200,
      maxCommitTimeMs: 1100,
      transactionTimeoutMs: 2500,
    });
  });

  it("stops on a value that is not a whole number of milliseconds, naming the variable", () => {
    expect(() => mongoTimeoutsFromEnv({ MONGODB_OPERATION_TIMEOUT_MS: "2s" })).toThrow(
      new ConfigError("MONGODB_OPERATION_TIMEOUT_MS", 'must be an integer from 1 to 600000, got "2s"'),
    );
    expect(() => mongoTimeoutsFromEnv({ MONGODB_CONNECT_TIMEOUT_MS: "0" })).toThrow(ConfigError);
  });

  it("stops on values out of line with each other, naming both variables", () => {
    const failure = (() => {
      try {
        return mongoTimeoutsFromEnv({ MONGODB_OPERATION_TIMEOUT_MS: "1500", MONGODB_TRANSACTION_TIMEOUT_MS: "5000" });
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).variable).toBe("MONGODB_SOCKET_TIMEOUT_MS");
    expect((failure as ConfigError).message).toBe("MONGODB_SOCKET_TIMEOUT_MS must be greater than MONGODB_OPERATION_TIMEOUT_MS (1500 ms), got 1500");
  });
});
