import { describe, expect, it } from "vitest";
import { createEmbeddedStore } from "@bayad/store";
import { createClock } from "../test-support/otp-harness.js";
import { createDevOutbox } from "./dev-outbox.js";

describe("development outbox", () => {
  it("keeps messages instead of sending them and lists a recipient's newest first", async () => {
    const store = createEmbeddedStore();
    const clock = createClock();
    const outbox = createDevOutbox(store, { now: clock.now });
    await store.ensureIndexes();
    const message = (otpId: string, recipient: string) => ({ channel: "sms" as const, recipient, subject: "s", body: `body ${otpId}`, otpId });

    await outbox.send(message("otp_1", "+639171234567"));
    await outbox.send(message("otp_2", "+639171234567"));
    clock.advance(1_000);
    await outbox.send(message("otp_3", "+639171234567"));
    await outbox.send(message("otp_4", "+639179999999"));

    const listed = await outbox.list("09171234567");
    expect(listed.map((m) => m.otpId)).toEqual(["otp_3", "otp_2", "otp_1"]);
    expect(listed[0]).toMatchObject({ recipient: "+639171234567", body: "body otp_3", channel: "sms" });
    expect(await outbox.list("+639170000000")).toEqual([]);
  });
});
