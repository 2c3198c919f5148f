/**
 * The messages between the benchmark (the parent) and the processes it forks. Servers under
 * test run in their own processes so that autocannon, which is CPU-bound, never shares an event
 * loop with them; IPC is how the parent learns where they listen and asks them for figures only
 * the server process can read (its heap, its stores).
 */

/** Child → parent, once: the child is listening; `value` says where and how to reach it. */
export interface ReadyMessage {
  type: "ready";
  value: unknown;
}

/** Child → parent, once: the child could not start; it exits right after. */
export interface FailedMessage {
  type: "failed";
  error: string;
}

/** Parent → child: run the named command and reply with the same id. */
export interface RequestMessage {
  type: "request";
  id: number;
  command: string;
}

/** Child → parent: the outcome of one request. */
export type ReplyMessage =
  | { type: "reply"; id: number; ok: true; value: unknown }
  | { type: "reply"; id: number; ok: false; error: string };

export type ChildMessage = ReadyMessage | FailedMessage | ReplyMessage;

export type CommandHandlers = Record<string, () => Promise<unknown>>;

function send(message: ChildMessage): void {
  process.send?.(message);
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Tells the parent the child is ready; throws when the process was not forked with IPC. */
export function announceReady(value: unknown): void {
  if (!process.send) throw new Error("this file is started by the benchmark (child_process.fork), not on its own");
  send({ type: "ready", value });
}

/** Tells the parent why the child could not start, then exits 1. */
export function announceFailure(error: unknown): never {
  send({ type: "failed", error: describe(error) });
  process.exit(1);
}

/** Answers the parent's requests with `handlers`; an unknown command or a throw is an error reply. */
export function answerRequests(handlers: CommandHandlers): void {
  process.on("message", (message: RequestMessage) => {
    if (message?.type !== "request") return;
    const handler = handlers[message.command];
    const work = handler ? handler() : Promise.reject(new Error(`unknown command "${message.command}"`));
    work.then(
      (value) => send({ type: "reply", id: message.id, ok: true, value }),
      (error: unknown) => send({ type: "reply", id: message.id, ok: false, error: describe(error) }),
    );
  });
}

/**
 * The parent is gone (finished, crashed or killed) when the IPC channel closes: the child must
 * not outlive it, or a Ctrl-C or a failed run would leave servers behind.
 */
export function exitWithParent(stop: () => Promise<void> = async () => {}): void {
  process.on("disconnect", () => {
    void stop().finally(() => process.exit(0));
  });
}
