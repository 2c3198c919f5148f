import { AppError } from "@bayad/kit";
import { describe, expect, it } from "vitest";
import { VERSION_CONFLICT_ATTEMPTS, VersionConflict, retryVersionConflicts } from "./version-conflicts.js";

class OtherWritersKey extends Error {}

describe("retryVersionConflicts", () => {
  it("tries again after each lost race and answers the first try that lands", async () => {
    const tries: number[] = [];
    const result = await retryVersionConflicts(async (attempt) => {
      tries.push(attempt);
      if (attempt < 3) throw new VersionConflict("thing_1");
      return "landed";
    });
    expect(result).toBe("landed");
    expect(tries).toEqual([0, 1, 2, 3]);
  });

  it(`gives up after ${VERSION_CONFLICT_ATTEMPTS} lost races with 409 CONCURRENT_MODIFICATION, keeping the last race as its cause`, async () => {
    let tries = 0;
    const error = await retryVersionConflicts(async () => {
      tries++;
      throw new VersionConflict("thing_1");
    }).catch((thrown: unknown) => thrown);
    expect(tries).toBe(VERSION_CONFLICT_ATTEMPTS);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "CONCURRENT_MODIFICATION", httpStatus: 409 });
    expect((error as AppError).cause).toBeInstanceOf(VersionConflict);
  });

  it("counts the errors the caller names as lost races too, and lets any other error through at once", async () => {
    let tries = 0;
    await expect(
      retryVersionConflicts(
        async () => {
          tries++;
          throw new OtherWritersKey("duplicate key");
        },
        (error) => error instanceof OtherWritersKey,
      ),
    ).rejects.toMatchObject({ code: "CONCURRENT_MODIFICATION" });
    expect(tries).toBe(VERSION_CONFLICT_ATTEMPTS);

    tries = 0;
    const refused = new AppError("INVALID_STATE_TRANSITION");
    await expect(
      retryVersionConflicts(async () => {
        tries++;
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(tries).toBe(1);
  });
});
