/** A first-come, first-served lock for async work. */
export class AsyncMutex {
  #tail: Promise<void> = Promise.resolve();

  /** Runs `work` once every earlier holder has finished; a failing holder still releases the lock. */
  async runExclusive<R>(work: () => R | Promise<R>): Promise<R> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    try {
      return await work();
    } finally {
      release();
    }
  }
}
