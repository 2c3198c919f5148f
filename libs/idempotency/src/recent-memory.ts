/**
 * A bounded memory of what was seen lately: two generations of at most `perGeneration` entries
 * each. When the newer is full it becomes the older and the older is dropped, so whatever was
 * seen recently is kept, and memory stays bounded without bookkeeping per entry. For hints and
 * caches on the gateway's request path, where forgetting an entry only costs a store read or a
 * digest.
 */
export class RecentMemory<K, V> {
  private recent = new Map<K, V>();
  private older = new Map<K, V>();

  constructor(private readonly perGeneration: number) {}

  get(key: K): V | undefined {
    return this.recent.get(key) ?? this.older.get(key);
  }

  has(key: K): boolean {
    return this.recent.has(key) || this.older.has(key);
  }

  set(key: K, value: V): void {
    if (!this.recent.has(key) && this.recent.size >= this.perGeneration) {
      this.older = this.recent;
      this.recent = new Map();
    }
    this.recent.set(key, value);
  }
}
