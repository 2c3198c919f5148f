import { create, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it, vi } from "vitest";
import { EventSchema, type Event } from "@bayad/proto";
import { createLogger } from "@bayad/kit";
import { eventMessageHandler } from "./event-handler.js";

describe("eventMessageHandler", () => {
  const logger = createLogger("test", "silent");

  it("hands each message's decoded event to the handler, and throws what it throws", async () => {
    const seen: Event[] = [];
    const event = create(EventSchema, { eventId: "evt_1", type: "payments.checkout.paid", projectId: "prj_1" });
    const message = { subject: "bayad.events.payments.checkout.paid", eventId: "evt_1", payload: toBinary(EventSchema, event), redelivered: false };
    await eventMessageHandler(logger, async (decoded) => void seen.push(decoded))(message);
    expect(seen).toEqual([event]);
    await expect(eventMessageHandler(logger, () => Promise.reject(new Error("store down")))(message)).rejects.toThrow("store down");
  });

  it("acknowledges an undecodable message, logged, without calling the handler", async () => {
    const error = vi.spyOn(logger, "error");
    const handle = vi.fn(() => Promise.resolve());
    const poison = { subject: "bayad.events.x", eventId: "evt_poison", payload: new Uint8Array([0xff, 0xff, 0xff]), redelivered: true };
    await expect(eventMessageHandler(logger, handle)(poison)).resolves.toBeUndefined();
    expect(handle).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ eventId: "evt_poison" }), "undecodable event skipped");
  });
});
