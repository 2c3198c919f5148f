import { create, equals, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { PaymentRecordSchema } from "@bayad/proto";
import { describe, expect, it } from "vitest";
import { paymentRecordToProto, type PaymentRecordDoc } from "./payment-record.js";

const full: PaymentRecordDoc = {
  _id: "chk_1",
  type: "checkout",
  projectId: "prj_1",
  environment: "test",
  referenceId: "order-1",
  relatedResourceId: "pi_1",
  amountMinor: "150000",
  currency: "PHP",
  status: "pending",
  createdAt: new Date("2026-01-02T03:04:05.678Z"),
  aggregateVersion: 2,
  updatedAt: new Date("2026-01-02T03:04:06.000Z"),
};
const bare: PaymentRecordDoc = { ...full, referenceId: null, relatedResourceId: null, amountMinor: null, currency: null, status: null };

/** What the message was when built with create(): null fields left out. */
function created(doc: PaymentRecordDoc) {
  return create(PaymentRecordSchema, {
    type: doc.type,
    id: doc._id,
    projectId: doc.projectId,
    environment: doc.environment,
    referenceId: doc.referenceId ?? undefined,
    relatedResourceId: doc.relatedResourceId ?? undefined,
    amountMinor: doc.amountMinor ?? undefined,
    currency: doc.currency ?? undefined,
    status: doc.status ?? undefined,
    createdAt: timestampFromDate(doc.createdAt),
  });
}

describe("paymentRecordToProto", () => {
  it.each([
    ["every field set", full],
    ["the optional fields null", bare],
    ["a time before 1970", { ...full, createdAt: new Date("1969-12-31T23:59:58.250Z") }],
    ["a time on a whole second", { ...full, createdAt: new Date("2026-01-02T03:04:05.000Z") }],
  ])("builds the message create() builds, with %s", (_, doc) => {
    const record = paymentRecordToProto(doc);
    expect(equals(PaymentRecordSchema, record, created(doc))).toBe(true);
    expect(toBinary(PaymentRecordSchema, record)).toEqual(toBinary(PaymentRecordSchema, created(doc)));
    expect(record).toStrictEqual(created(doc));
  });

  it("leaves a null field absent, not set to empty text", () => {
    const record = paymentRecordToProto(bare);
    expect("referenceId" in record).toBe(false);
    expect("status" in record).toBe(false);
  });
});
