import { notFound } from "./api-error.js";
import { newId, unixNow } from "./ids.js";

/** Whose objects a request sees: each secret key is its own account, in the key's mode. */
export interface Account {
  owner: string;
  livemode: boolean;
}

export interface StoredObject {
  id: string;
  type: string;
  owner: string;
  livemode: boolean;
  attributes: Record<string, unknown>;
  /**
   * Attributes that hold other objects (a session's payments, an intent's payment intent), kept
   * as ids and rendered when read, so a refund settled later shows in every object that holds
   * the payment.
   */
  refs: Record<string, string | string[] | null>;
  /** What the simulator keeps about an object that PayMongo does not show (an intent's attached method). */
  internal: Record<string, unknown>;
}

export interface StoredEvent {
  id: string;
  type: string;
  owner: string;
  livemode: boolean;
  /** The exact JSON delivered to webhooks, signed as is. */
  body: string;
}

export interface Rendered {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
}

/** Every object of every account, by id, and the events they emitted. */
export class SimulatorState {
  private readonly objects = new Map<string, StoredObject>();
  readonly events: StoredEvent[] = [];
  private readonly eventListeners: Array<(event: StoredEvent) => void> = [];

  constructor(readonly baseUrl: string) {}

  create(
    account: Account,
    prefix: string,
    type: string,
    attributes: Record<string, unknown>,
    refs: StoredObject["refs"] = {},
  ): StoredObject {
    const now = unixNow();
    const object: StoredObject = {
      id: newId(prefix),
      type,
      owner: account.owner,
      livemode: account.livemode,
      attributes: { ...attributes, livemode: account.livemode, created_at: now, updated_at: now },
      refs,
      internal: {},
    };
    this.objects.set(object.id, object);
    return object;
  }

  find(id: string): StoredObject | undefined {
    return this.objects.get(id);
  }

  /** The object if it exists, is of this type and belongs to `account` (else 404, as PayMongo answers). */
  owned(account: Account, id: string, type: string, attribute?: string): StoredObject {
    const object = this.objects.get(id);
    if (!object || object.type !== type || object.owner !== account.owner) throw notFound(id, attribute);
    return object;
  }

  /** The object of this type by id, whichever account holds it (for the simulator's controls). */
  any(id: string, type: string): StoredObject {
    const object = this.objects.get(id);
    if (!object || object.type !== type) throw notFound(id);
    return object;
  }

  list(account: Account, type: string, keep: (o: StoredObject) => boolean = () => true): StoredObject[] {
    return [...this.objects.values()].filter((o) => o.type === type && o.owner === account.owner && keep(o));
  }

  /** Every object of this type, in every account (for the simulator's own pages). */
  all(type: string): StoredObject[] {
    return [...this.objects.values()].filter((o) => o.type === type);
  }

  update(object: StoredObject, patch: Record<string, unknown>): void {
    Object.assign(object.attributes, patch, { updated_at: unixNow() });
  }

  render(object: StoredObject): Rendered {
    const attributes: Record<string, unknown> = { ...object.attributes };
    for (const [name, ref] of Object.entries(object.refs)) {
      if (Array.isArray(ref)) attributes[name] = ref.map((id) => this.renderId(id));
      else attributes[name] = ref === null ? null : this.renderId(ref);
    }
    return { id: object.id, type: object.type, attributes: structuredClone(attributes) };
  }

  private renderId(id: string): Rendered | null {
    const object = this.objects.get(id);
    return object ? this.render(object) : null;
  }

  /** Records an event about `data` (rendered now, as PayMongo snapshots it) and hands it to the deliveries. */
  emit(type: string, data: StoredObject | Rendered, account: Account = data as StoredObject): StoredEvent {
    const now = unixNow();
    const rendered = "owner" in data ? this.render(data) : data;
    const id = newId("evt");
    const attributes = {
      type,
      livemode: account.livemode,
      data: rendered,
      previous_data: {},
      created_at: now,
      updated_at: now,
    };
    this.objects.set(id, { id, type: "event", owner: account.owner, livemode: account.livemode, attributes, refs: {}, internal: {} });
    const event: StoredEvent = {
      id,
      type,
      owner: account.owner,
      livemode: account.livemode,
      body: JSON.stringify({ data: { id, type: "event", attributes } }),
    };
    this.events.push(event);
    for (const listener of this.eventListeners) listener(event);
    return event;
  }

  onEvent(listener: (event: StoredEvent) => void): void {
    this.eventListeners.push(listener);
  }
}
