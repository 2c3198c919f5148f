import Koa from "koa";
import { describe, expect, it } from "vitest";
import { serveApp } from "../test-support/serve-app.js";
import { coalesceResponses } from "./coalesce-responses.js";

type Next = () => Promise<void>;

/** Runs the middleware for one request and tells whether its response has been released. */
function handle(middleware: Koa.Middleware, next: Next) {
  const state = { released: false, error: undefined as unknown };
  const done = (middleware({} as Koa.Context, next) as Promise<void>).then(
    () => void (state.released = true),
    (error: unknown) => {
      state.released = true;
      state.error = error;
    },
  );
  return { state, done };
}

const microtasksDrained = () => new Promise<void>((resolve) => process.nextTick(resolve));
const turnEnded = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A downstream step that finishes when the test says so. */
function deferred() {
  let finish!: () => void;
  const promise = new Promise<void>((resolve) => (finish = resolve));
  return { next: () => promise, finish };
}

describe("coalesceResponses", () => {
  it("releases the responses finished in one turn together, once the turn's callbacks have run", async () => {
    const middleware = coalesceResponses();
    const first = handle(middleware, async () => {});
    const second = handle(middleware, async () => {});
    await microtasksDrained();
    expect([first.state.released, second.state.released]).toEqual([false, false]);
    await turnEnded();
    expect([first.state.released, second.state.released]).toEqual([true, true]);
  });

  it("never makes a response wait for another request still at work", async () => {
    const middleware = coalesceResponses();
    const slow = deferred();
    const pending = handle(middleware, slow.next);
    const quick = handle(middleware, async () => {});
    await microtasksDrained();
    await turnEnded();
    expect(quick.state.released).toBe(true);
    expect(pending.state.released).toBe(false);

    slow.finish();
    await pending.done;
    expect(pending.state.released).toBe(true);
  });

  it("passes a downstream error on after the turn", async () => {
    const middleware = coalesceResponses();
    const failed = handle(middleware, async () => {
      throw new Error("downstream failed");
    });
    await microtasksDrained();
    expect(failed.state.released).toBe(false);
    await failed.done;
    expect((failed.state.error as Error).message).toBe("downstream failed");
  });

  it("answers every one of many concurrent requests with its own response", async () => {
    const app = new Koa();
    app.use(coalesceResponses());
    app.use((ctx) => {
      ctx.body = { path: ctx.path };
    });
    const served = await serveApp(app);
    try {
      const paths = Array.from({ length: 40 }, (_, index) => `/r/${index}`);
      const bodies = await Promise.all(paths.map(async (path) => (await fetch(`${served.url}${path}`)).json()));
      expect(bodies).toEqual(paths.map((path) => ({ path })));
    } finally {
      await served.close();
    }
  });
});
