import { describe, expect, it } from "vitest";
import { create, fromBinary, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { CheckoutSchema, EventSchema, GetQrPhImageResponseSchema, ListPaymentRecordsResponseSchema, PaymentRecordSchema } from "@bayad/proto";
import { copyMessage } from "./message-copy.js";

/** What a remote caller would receive: the message encoded and decoded. */
function overTheWire<D extends DescMessage>(schema: D, message: MessageShape<D>): MessageShape<D> {
  return fromBinary(schema, toBinary(schema, message));
}

const checkout = create(CheckoutSchema, {
  checkoutId: "chk_1",
  referenceId: "order-1",
  metadata: { cart: "42", channel: "app" },
  createdAt: timestampFromDate(new Date("2026-11-21T08:00:00.000Z")),
});

describe("copyMessage", () => {
  it("makes what the wire makes of a message with a oneof, a nested message, a map and timestamps", () => {
    const event = create(EventSchema, {
      eventId: "evt_1",
      type: "payments.checkout.created",
      aggregateVersion: 3,
      occurredAt: timestampFromDate(new Date("2026-11-21T08:00:01.500Z")),
      snapshot: { case: "checkout", value: checkout },
    });
    expect(copyMessage(event)).toEqual(overTheWire(EventSchema, event));
  });

  it("makes what the wire makes of repeated messages with optional fields set and unset, and of bytes", () => {
    const page = create(ListPaymentRecordsResponseSchema, {
      records: [
        create(PaymentRecordSchema, { id: "chk_1", type: "checkout", referenceId: "order-1", amountMinor: "150000" }),
        create(PaymentRecordSchema, { id: "ref_1", type: "refund" }),
      ],
      nextCursor: "c1",
    });
    expect(copyMessage(page)).toEqual(overTheWire(ListPaymentRecordsResponseSchema, page));
    const image = create(GetQrPhImageResponseSchema, { png: new Uint8Array([137, 80, 78, 71]) });
    expect(copyMessage(image)).toEqual(overTheWire(GetQrPhImageResponseSchema, image));
  });

  it("replaces a lone surrogate with U+FFFD, as UTF-8 on the wire does", () => {
    const odd = create(CheckoutSchema, { referenceId: "a\ud800b", metadata: { note: "\udfff" } });
    const copied = copyMessage(odd);
    expect(copied).toEqual(overTheWire(CheckoutSchema, odd));
    expect(copied.referenceId).toBe("a\ufffdb");
  });

  it("shares nothing with the original", () => {
    const image = create(GetQrPhImageResponseSchema, { png: new Uint8Array([1, 2, 3]) });
    const copiedImage = copyMessage(image);
    copiedImage.png[0] = 9;
    expect(image.png[0]).toBe(1);

    const copied = copyMessage(checkout);
    copied.metadata.cart = "changed";
    copied.createdAt!.seconds = 0n;
    expect(checkout.metadata.cart).toBe("42");
    expect(checkout.createdAt!.seconds).not.toBe(0n);
  });
});
