import { beforeEach, describe, expect, it } from "vitest";
import { recordOf } from "../test-support/records.js";
import { createPaymentRecordsRepository, type PaymentRecordsRepository } from "./payment-records-repository.js";
import { projectInTransaction, type ProjectionOutcome } from "./projection.js";
import type { ProjectedRecord } from "./payment-record.js";
import { createTestStore } from "@bayad/store/testing";

describe("projectRecord", () => {
  let repository: PaymentRecordsRepository;
  let project: (record: ProjectedRecord) => Promise<ProjectionOutcome>;
  let clock: number;

  beforeEach(async () => {
    const store = createTestStore();
    repository = createPaymentRecordsRepository(store);
    await store.ensureIndexes();
    clock = Date.parse("2026-02-01T00:00:00.000Z");
    // Every write sees a later time, so an unchanged updatedAt proves nothing was written.
    project = (record) => projectInTransaction(store, () => new Date((clock += 1000)), record);
  });

  it("inserts a record it has not seen", async () => {
    expect(await project(recordOf({ _id: "chk_1", status: "pending" }))).toBe("inserted");
    expect(await repository.findById("chk_1")).toMatchObject({ status: "pending", aggregateVersion: 1 });
  });

  it("changes nothing when an event is delivered again", async () => {
    await project(recordOf({ _id: "chk_1", status: "pending" }));
    await project(recordOf({ _id: "chk_1", status: "paid", aggregateVersion: 2 }));
    const before = await repository.findById("chk_1");

    expect(await project(recordOf({ _id: "chk_1", status: "paid", aggregateVersion: 2 }))).toBe("unchanged");
    expect(await repository.findById("chk_1")).toEqual(before);
  });

  it("changes nothing when a first version is delivered again, before or after a later one", async () => {
    await project(recordOf({ _id: "chk_1", status: "created" }));
    const first = await repository.findById("chk_1");
    expect(await project(recordOf({ _id: "chk_1", status: "created" }))).toBe("unchanged");
    expect(await repository.findById("chk_1")).toEqual(first);
    await project(recordOf({ _id: "chk_1", status: "pending", aggregateVersion: 2 }));
    expect(await project(recordOf({ _id: "chk_1", status: "created" }))).toBe("unchanged");
    expect(await repository.findById("chk_1")).toMatchObject({ status: "pending", aggregateVersion: 2 });
  });

  it("keeps the newest version when events arrive out of order", async () => {
    expect(await project(recordOf({ _id: "chk_1", status: "paid", aggregateVersion: 3 }))).toBe("inserted");
    expect(await project(recordOf({ _id: "chk_1", status: "pending", aggregateVersion: 2 }))).toBe("unchanged");
    expect(await project(recordOf({ _id: "chk_1", status: "created", aggregateVersion: 1 }))).toBe("unchanged");
    expect(await repository.findById("chk_1")).toMatchObject({ status: "paid", aggregateVersion: 3 });
  });

  it("replaces an older version and leaves the record's place in the feed alone", async () => {
    const createdAt = new Date("2026-01-05T00:00:00.000Z");
    await project(recordOf({ _id: "chk_1", status: "pending", createdAt }));
    const replaced = await project(
      recordOf({ _id: "chk_1", status: "paid", aggregateVersion: 2, createdAt: new Date("2026-01-09T00:00:00.000Z") }),
    );
    expect(replaced).toBe("replaced");
    expect(await repository.findById("chk_1")).toMatchObject({ status: "paid", aggregateVersion: 2, createdAt });
  });

  it("ends at the highest version when many versions of one resource are projected at once", async () => {
    const statuses = ["created", "pending", "paid", "failed"];
    const versions = Array.from({ length: 40 }, (_, index) => index + 1);
    // Newest first and interleaved: every step of the decision races with the others.
    const shuffled = [...versions.filter((v) => v % 2 === 0).reverse(), ...versions.filter((v) => v % 2 === 1)];
    const outcomes = await Promise.all(
      shuffled.map((version) =>
        project(recordOf({ _id: "pi_race", type: "payment_intent", status: statuses[version % 4] ?? null, aggregateVersion: version })),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === "inserted")).toHaveLength(1);
    expect(await repository.findById("pi_race")).toMatchObject({ aggregateVersion: 40, status: statuses[0] });
  });
});
