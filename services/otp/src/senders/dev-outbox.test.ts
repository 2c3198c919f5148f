import { describe, expect, it } from "vitest";
import { parseKeyRing, sealedKeyId } from "@bayad/kit";
import { createClock } from "../test-support/otp-harness.js";
import { createDevOutbox } from "./dev-outbox.js";
import { createTestStore } from "@bayad/store/testing";

const secret = "otp-hash-secret-for-dev-outbox-tests-0001";

describe("development outbox", () => {
  it("keeps messages instead of sending them and lists a recipient's newest first", async () => {
    const store = createTestStore();
    const clock = createClock();
    const outbox = createDevOutbox(store, { secret, now: clock.now });
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

  it("keeps each body sealed in the store, shown opened, and hides one it cannot open", async () => {
    const store = createTestStore();
    const outbox = createDevOutbox(store, { secret });
    await store.ensureIndexes();
    const body = "Your Bayad code is 482913. It expires in 5 minutes. Never share it.";

    await outbox.send({ channel: "sms", recipient: "+639171234567", subject: "Your Bayad verification code", body, otpId: "otp_1" });

    const stored = await store.collection({ name: "dev_messages" }).find({});
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain("482913");
    expect((await outbox.list("+639171234567")).map((message) => message.body)).toEqual([body]);
    // Under another OTP_HASH_SECRET the message cannot be opened, and is not shown.
    expect(await createDevOutbox(store, { secret: `${secret}-changed` }).list("+639171234567")).toEqual([]);
  });

  it("moves the kept bodies to the ring's newest key on a reseal, after which the old key can go", async () => {
    const store = createTestStore();
    const oldRing = parseKeyRing(`k1:${secret}`, 32);
    const bothRing = parseKeyRing(`k1:${secret},k2:${secret}-newer`, 32);
    const body = "Your Bayad code is 118822.";
    await createDevOutbox(store, { secret: oldRing }).send({ channel: "sms", recipient: "+639171234567", subject: "Code", body, otpId: "otp_1" });

    expect(await createDevOutbox(store, { secret: bothRing }).resealSecrets()).toEqual({ resealed: 1, current: 0, unreadable: 0 });

    const [stored] = await store.collection<{ _id: string; sealedBody: string }>({ name: "dev_messages" }).find({});
    expect(sealedKeyId(stored.sealedBody)).toBe("k2");
    const newOnly = createDevOutbox(store, { secret: parseKeyRing(`k2:${secret}-newer`, 32) });
    expect((await newOnly.list("+639171234567")).map((message) => message.body)).toEqual([body]);
    expect(await newOnly.resealSecrets()).toEqual({ resealed: 0, current: 1, unreadable: 0 });
  });
});
