/**
 * The event ids a bus has taken within its duplicate window, oldest first, bounded in number:
 * JetStream's Nats-Msg-Id dedupe, for the in-process bus.
 *
 * Ids are forgotten from the front of a queue, never by iterating the map: a Map keeps a deleted
 * entry's slot until it rehashes, so walking it from the start after many deletions steps over
 * every slot deleted since, and the cost of a publish grew with the number remembered.
 */
export class RecentIds {
  /** id → until when a repeat is a duplicate. */
  private readonly until = new Map<string, number>();
  /** The ids in `until`, in the order they were remembered, from `head` on. */
  private order: string[] = [];
  private head = 0;

  constructor(
    private readonly windowMs: number,
    private readonly maxIds: number,
  ) {}

  /** True when `id` was taken within the window; otherwise remembers it (at `now`) and returns false. */
  seenElseRemember(id: string, now: number): boolean {
    this.forget(now);
    if (this.until.has(id)) return true;
    this.until.set(id, now + this.windowMs);
    this.order.push(id);
    return false;
  }

  get size(): number {
    return this.until.size;
  }

  /** Forgets ids whose window has passed, and the oldest beyond `maxIds - 1` to make room. */
  private forget(now: number): void {
    while (this.head < this.order.length) {
      const id = this.order[this.head];
      if (this.until.get(id)! > now && this.until.size < this.maxIds) break;
      this.until.delete(id);
      this.head += 1;
    }
    // Drop the forgotten prefix once it is half the queue: amortized O(1) per id.
    if (this.head >= 1024 && this.head * 2 >= this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }
}
