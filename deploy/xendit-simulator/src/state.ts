import { randomUUID } from "node:crypto";
import { notFound } from "./api-error.js";
import type { Account } from "./auth.js";
import { isoNow } from "./ids.js";

export type Kind = "payment_request" | "payment" | "session" | "refund" | "invoice";

/** One object as Xendit shows it (flat JSON, `body`), with whose it is and what only the simulator keeps. */
export interface Stored {
  id: string;
  kind: Kind;
  account: Account;
  body: Record<string, unknown>;
  internal: Record<string, unknown>;
}

/** A callback the simulator made, kept whether or not it was delivered. */
export interface StoredEvent {
  /** The simulator's own handle for the controls; Xendit's v3 envelope carries no event id [O]. */
  id: string;
  /** The v3 event (`payment.capture`…), or for an invoice the simulator's own name (`invoice.paid`, `invoice.expired`), which no body carries. */
  event: string;
  /** Which product's callback URLs it goes to: Xendit's dashboard has a URL per product [O]. */
  product: "v3" | "invoice";
  owner: string;
  /** The exact JSON delivered: `{event, business_id, created, data}` [O], or an invoice's flat body [O]. */
  body: string;
}

/** Every object of every account by id, and the events they made. */
export class SimulatorState {
  private readonly objects = new Map<string, Stored>();
  readonly events: StoredEvent[] = [];
  private readonly listeners: Array<(event: StoredEvent) => void> = [];

  constructor(readonly baseUrl: string) {}

  put(kind: Kind, account: Account, id: string, fields: Record<string, unknown>): Stored {
    const now = isoNow();
    const stored: Stored = { id, kind, account, body: { ...fields, created: now, updated: now }, internal: {} };
    this.objects.set(id, stored);
    return stored;
  }

  /** The object if it is of this kind and `account`'s; else 404 DATA_NOT_FOUND, as Xendit answers. */
  owned(account: Account, id: string, kind: Kind): Stored {
    const stored = this.objects.get(id);
    if (!stored || stored.kind !== kind || stored.account.owner !== account.owner) throw notFound(id);
    return stored;
  }

  /** The object of this kind whichever account holds it (for the controls and pages). */
  any(id: string, kind: Kind): Stored {
    const stored = this.objects.get(id);
    if (!stored || stored.kind !== kind) throw notFound(id);
    return stored;
  }

  find(id: string): Stored | undefined {
    return this.objects.get(id);
  }

  all(kind: Kind, keep: (stored: Stored) => boolean = () => true): Stored[] {
    return [...this.objects.values()].filter((stored) => stored.kind === kind && keep(stored));
  }

  update(stored: Stored, patch: Record<string, unknown>): void {
    Object.assign(stored.body, patch, { updated: isoNow() });
  }

  /** A copy of the object as the API answers it, so no caller can change the stored one. */
  view(stored: Stored): Record<string, unknown> {
    return structuredClone(stored.body);
  }

  /** Records a v3 callback about `data` (snapshotted now) and hands it to the deliveries. */
  emit(event: string, about: Stored): StoredEvent {
    const envelope = { event, business_id: about.account.businessId, created: isoNow(), data: this.view(about) };
    return this.record({ id: `evt-${randomUUID()}`, event, product: "v3", owner: about.account.owner, body: JSON.stringify(envelope) });
  }

  /** Records an invoice's callback: the invoice itself, flat, no `event` wrapper [O xendit-node InvoiceCallback]. */
  emitInvoice(event: "invoice.paid" | "invoice.expired", invoice: Stored): StoredEvent {
    return this.record({ id: `evt-${randomUUID()}`, event, product: "invoice", owner: invoice.account.owner, body: JSON.stringify(this.view(invoice)) });
  }

  private record(event: StoredEvent): StoredEvent {
    this.events.push(event);
    for (const listener of this.listeners) listener(event);
    return event;
  }

  onEvent(listener: (event: StoredEvent) => void): void {
    this.listeners.push(listener);
  }
}
