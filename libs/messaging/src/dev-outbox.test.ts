import { describe, expect, it } from "vitest";
import { parseKeyRing, sealedKeyId } from "@bayad/kit";
import { createTestStore } from "@bayad/store/testing";
import { createDevOutbox } from "./dev-outbox.js";
import type { OutboundMessage } from "./sender.js";

const secret = "otp-hash-secret-for-dev-outbox-tests-0001";

const otpMessage = (resourceId: string, recipient: string, projectId = "prj_a"): OutboundMessage => ({
  kind: "otp",
  channel: "sms",
  recipient,
  subject: "s",
  body: `body ${resourceId}`,
  locale: "en",
  projectId,
  resourceId,
});

function createClock(start = Date.parse("2025-01-01T00:00:00Z")) {
  let at = start;
  return { now: () => new Date(at), advance: (ms: number) => void (at += ms) };
}

describe("development outbox", () => {
  it("lists a message kept after a restart after the ones kept before it, though both were taken in the same millisecond", async () => {
    const store = createTestStore();
    const clock = createClock();
    const before = createDevOutbox(store, { secret, now: clock.now });
    await store.ensureIndexes();
    await before.send(otpMessage("otp_before_1", "+639171234567"));
    await before.send(otpMessage("otp_before_2", "+639171234567"));
    // A new process's outbox on the same store, its clock at the same millisecond.
    const after = createDevOutbox(store, { secret, now: clock.now });
    await after.send(otpMessage("otp_after", "+639171234567"));
    expect((await after.list({ recipient: "09171234567" })).map((m) => m.resourceId)).toEqual(["otp_after", "otp_before_2", "otp_before_1"]);
  });

  it("keeps messages instead of sending them and lists a recipient's newest first", async () => {
    const store = createTestStore();
    const clock = createClock();
    const outbox = createDevOutbox(store, { secret, now: clock.now });
    await store.ensureIndexes();

    await outbox.send(otpMessage("otp_1", "+639171234567"));
    await outbox.send(otpMessage("otp_2", "+639171234567"));
    clock.advance(1_000);
    await outbox.send(otpMessage("otp_3", "+639171234567"));
    await outbox.send(otpMessage("otp_4", "+639179999999"));

    const listed = await outbox.list({ recipient: "09171234567" });
    expect(listed.map((m) => m.resourceId)).toEqual(["otp_3", "otp_2", "otp_1"]);
    expect(listed[0]).toMatchObject({ recipient: "+639171234567", body: "body otp_3", channel: "sms", kind: "otp", locale: "en", projectId: "prj_a" });
    expect(await outbox.list({ recipient: "+639170000000" })).toEqual([]);
  });

  it("holds every kind of message, each saying its kind, channel, locale and project, listed by project and kind", async () => {
    const store = createTestStore();
    const outbox = createDevOutbox(store, { secret });
    await store.ensureIndexes();
    await outbox.send(otpMessage("otp_1", "juan@example.ph", "prj_a"));
    await outbox.send({
      kind: "invoice",
      channel: "email",
      recipient: "juan@example.ph",
      subject: "Invoice",
      body: "Pay ₱1,234.50",
      html: "<p>Pay ₱1,234.50</p>",
      locale: "fil",
      projectId: "prj_a",
      resourceId: "inv_1",
    });
    await outbox.send({ ...otpMessage("otp_2", "maria@example.ph", "prj_b"), channel: "email" });

    const invoices = await outbox.list({ projectId: "prj_a", kind: "invoice" });
    expect(invoices).toEqual([
      expect.objectContaining({ kind: "invoice", channel: "email", locale: "fil", projectId: "prj_a", resourceId: "inv_1", body: "Pay ₱1,234.50", html: "<p>Pay ₱1,234.50</p>" }),
    ]);
    expect((await outbox.list({ projectId: "prj_a" })).map((m) => m.resourceId).sort()).toEqual(["inv_1", "otp_1"]);
    expect((await outbox.list({ recipient: "JUAN@example.ph", kind: "otp" })).map((m) => m.resourceId)).toEqual(["otp_1"]);
    await expect(outbox.list({ kind: "otp" })).rejects.toThrow();
  });

  it("keeps each text sealed in the store, shown opened, and hides one it cannot open", async () => {
    const store = createTestStore();
    const outbox = createDevOutbox(store, { secret });
    await store.ensureIndexes();
    const body = "Your Bayad code is 482913. It expires in 5 minutes. Never share it.";

    await outbox.send({ ...otpMessage("otp_1", "+639171234567"), body, html: "<b>482913</b>", channel: "email" });

    const stored = await store.collection({ name: "dev_messages" }).find({});
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain("482913");
    expect((await outbox.list({ recipient: "+639171234567" })).map((message) => [message.body, message.html])).toEqual([[body, "<b>482913</b>"]]);
    // Under another secret the message cannot be opened, and is not shown.
    expect(await createDevOutbox(store, { secret: `${secret}-changed` }).list({ recipient: "+639171234567" })).toEqual([]);
  });

  it("moves the kept texts to the ring's newest key on a reseal, after which the old key can go", async () => {
    const store = createTestStore();
    const oldRing = parseKeyRing(`k1:${secret}`, 32);
    const bothRing = parseKeyRing(`k1:${secret},k2:${secret}-newer`, 32);
    const body = "Your Bayad code is 118822.";
    await createDevOutbox(store, { secret: oldRing }).send({ ...otpMessage("otp_1", "+639171234567"), body });

    expect(await createDevOutbox(store, { secret: bothRing }).resealSecrets()).toEqual({ resealed: 1, current: 0, unreadable: 0 });

    const [stored] = await store.collection<{ _id: string; sealedBody: string }>({ name: "dev_messages" }).find({});
    expect(sealedKeyId(stored.sealedBody)).toBe("k2");
    const newOnly = createDevOutbox(store, { secret: parseKeyRing(`k2:${secret}-newer`, 32) });
    expect((await newOnly.list({ recipient: "+639171234567" })).map((message) => message.body)).toEqual([body]);
    expect(await newOnly.resealSecrets()).toEqual({ resealed: 0, current: 1, unreadable: 0 });
  });
});
