/**
 * A first-come, first-served lock for async work. When the lock is free, `work` starts at once,
 * in the caller's turn: a store write outside a transaction then costs no extra promise hops.
 */
export class AsyncMutex {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  /** Runs `work` once every earlier holder has finished; a failing holder still releases the lock. */
  runExclusive<R>(work: () => R | Promise<R>): Promise<R> {
    if (!this.#held) {
      this.#held = true;
      return this.#run(work);
    }
    return new Promise<void>((resolve) => this.#waiting.push(resolve)).then(() => this.#run(work));
  }

  #run<R>(work: () => R | Promise<R>): Promise<R> {
    let result: R | Promise<R>;
    try {
      result = work();
    } catch (error) {
      this.#release();
      return Promise.reject(error);
    }
    if (!(result instanceof Promise)) {
      this.#release();
      return Promise.resolve(result);
    }
    return result.finally(() => this.#release());
  }

  /** Hands the lock to the next waiter (it stays held), or frees it. */
  #release(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#held = false;
    else next();
  }
}
