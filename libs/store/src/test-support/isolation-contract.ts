import { describe, expect, it } from "vitest";
import type { Collection, Doc, Store } from "../port.js";
import type { ContractFixture } from "./contract-fixture.js";

interface Shift extends Doc {
  /** The guard: every leave taken from the shift writes the next version. */
  version: number;
}

interface Doctor extends Doc {
  shift: string;
  onCall: boolean;
}

/** Shifts tried at once: the more run side by side, the likelier a snapshot store interleaves them. */
const SHIFTS = 5;

/**
 * A doctor asks to leave `shiftId`, allowed while another doctor stays on call. The decision reads
 * the other doctors (what their own requests write) and writes only this doctor, so under snapshot
 * isolation two requests could both see the other on call and both leave (write skew). The
 * version-guarded write on the shift makes every leave write one common document, so two
 * concurrent leaves conflict and one is retried by the store, deciding again from what the other
 * committed.
 */
function requestLeave(store: Store, shifts: Collection<Shift>, doctors: Collection<Doctor>, shiftId: string, doctorId: string): Promise<boolean> {
  return store.transaction(async (session) => {
    const shift = await shifts.findOne({ _id: shiftId }, { session });
    if (shift === null) throw new Error(`shift ${shiftId} is missing`);
    const onCall = await doctors.count({ shift: shiftId, onCall: true }, { session });
    if (onCall < 2) return false;
    await doctors.updateOne({ _id: doctorId }, { $set: { onCall: false } }, { session });
    const guarded = await shifts.updateOne({ _id: shiftId, version: shift.version }, { $inc: { version: 1 } }, { session });
    // The version was read in this very transaction: a store either keeps it matching or reports the conflict itself.
    if (guarded.matched === 0) throw new Error(`shift ${shiftId} moved past version ${shift.version} inside one transaction`);
    return true;
  });
}

export function describeIsolationContract(fixture: ContractFixture): void {
  describe("isolation: write skew", () => {
    it("lets at most one of two on-call doctors leave when both ask at once and each leave writes the shift's version", async () => {
      const shifts = fixture.collection<Shift>();
      const doctors = fixture.collection<Doctor>();
      const ids = Array.from({ length: SHIFTS }, (_, index) => `shift-${index}`);
      for (const id of ids) {
        await shifts.insertOne({ _id: id, version: 0 });
        await doctors.insertOne({ _id: `${id}-alice`, shift: id, onCall: true });
        await doctors.insertOne({ _id: `${id}-bob`, shift: id, onCall: true });
      }

      const outcomes = await Promise.all(
        ids.map(async (id) => {
          const [alice, bob] = await Promise.all([
            requestLeave(fixture.store(), shifts, doctors, id, `${id}-alice`),
            requestLeave(fixture.store(), shifts, doctors, id, `${id}-bob`),
          ]);
          return { id, alice, bob };
        }),
      );

      // Some serial order of the two requests: the first leaves, the second sees one doctor left and stays.
      for (const { id, alice, bob } of outcomes) {
        expect([alice, bob].filter(Boolean), id).toHaveLength(1);
        const stillOnCall = await doctors.find({ shift: id, onCall: true });
        expect(stillOnCall.map((doctor) => doctor._id), id).toEqual([alice ? `${id}-bob` : `${id}-alice`]);
        expect(await shifts.findOne({ _id: id }), id).toEqual({ _id: id, version: 1 });
      }
    });
  });
}
