/** One page of a list: its items, and the cursor of the next page when there is one. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * A list walked page by page as it is iterated: `for await (const record of bayad.records.list())`
 * reads the next page only when the loop reaches it, passing each page's `nextCursor` as the
 * next `cursor` until a page has none. `pages()` gives the pages themselves. A list the API does
 * not page (plans, payment links, a subscription's invoices) is one page.
 */
export class PageIterator<T> implements AsyncIterable<T> {
  readonly #fetchPage: (cursor: string | undefined) => Promise<Page<T>>;

  constructor(fetchPage: (cursor: string | undefined) => Promise<Page<T>>) {
    this.#fetchPage = fetchPage;
  }

  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.#fetchPage(cursor);
      yield page;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Every item of every page, in order. For short lists: it reads them all into memory. */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
