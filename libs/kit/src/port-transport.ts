import type { MessagePort } from "node:worker_threads";
import { Code, ConnectError, createContextValues, type Transport } from "@connectrpc/connect";
import { create, isMessage, toBinary, type DescMethodServerStreaming, type DescMethodUnary, type DescService } from "@bufbuild/protobuf";
import { messagesCopiedByCaller } from "./direct-transport.js";
import { callerValueOf, setCallerValue, type CallerContext } from "./caller-context.js";

/**
 * Unary and server-streaming rpcs across a MessagePort, for services running on another thread of this process (the
 * platform's services thread): `createPortTransport` is the client's Transport, `servePortCalls`
 * hands each call to the service's own in-process transport on the other side (kit's direct
 * transport: the service's interceptors, error boundary and deadline run as for any in-process
 * call). Messages cross as structured clones (protobuf-es messages are plain data), so neither
 * side encodes them; errors arrive as a remote caller sees them (code, message, metadata, details
 * as bytes). Both sides post in batches, one message per turn of the event loop, and the serving
 * side starts a few calls per turn (see `ServePortCallsOptions`). A server stream is pulled: the
 * serving side reads the service's next message only when the client has credit left (it grants
 * `STREAM_WINDOW` at the start and one more for each message its reader takes), so a slow reader
 * slows the service instead of filling either thread's memory.
 */

/** Messages of a server stream that may be on their way, or waiting, for the client's reader. */
const STREAM_WINDOW = 2;

type HeaderEntries = Array<[string, string]>;

interface CallMessage {
  kind: "call";
  id: number;
  /** The service's fully-qualified name and the method's name. */
  service: string;
  method: string;
  timeoutMs: number | undefined;
  header: HeaderEntries;
  /**
   * The caller the call's context values carry (see callerCallOptions): context values stay with
   * the client, but the caller is plain data, so the service reads it as an in-process service
   * does instead of parsing the metadata again.
   */
  caller: CallerContext | undefined;
  message: unknown;
  /** Whether the caller may cancel it (a `cancel` may follow). */
  cancelable: boolean;
}

interface CancelMessage {
  kind: "cancel";
  id: number;
}

/** A server-streaming call: a call's fields (its single request), the stream starting with `STREAM_WINDOW` credit. */
interface StreamMessage extends Omit<CallMessage, "kind" | "cancelable"> {
  kind: "stream";
}

/** The client's reader took messages: the serving side may send that many more. */
interface MoreMessage {
  kind: "more";
  id: number;
  count: number;
}

type ClientMessage = CallMessage | CancelMessage | StreamMessage | MoreMessage;

interface ReceivedError {
  code: Code;
  message: string;
  metadata: HeaderEntries;
  details: Array<{ type: string; value: Uint8Array }>;
}

type UnaryReply = { id: number; message: unknown; header?: HeaderEntries; trailer?: HeaderEntries } | { id: number; error: ReceivedError };

type ReplyMessage =
  | UnaryReply
  // A server stream: opened (its header), then each message, then its end (its trailer) or an error.
  | { id: number; opened: true; header?: HeaderEntries }
  | { id: number; item: unknown }
  | { id: number; end: true; trailer?: HeaderEntries };

const notRunning = () => new ConnectError("the services thread is not running", Code.Unavailable);

/**
 * The client side: unary calls posted to `port`, answered by `servePortCalls` on the other end.
 * The caller's deadline and abort signal are enforced here too (a cancel is passed on), so a busy
 * or stopped other side cannot hold a call forever; once `close()` is called or the port closes,
 * pending and new calls fail UNAVAILABLE.
 */
export function createPortTransport(port: MessagePort): Transport & { close(): void } {
  const pending = new Map<number, (reply: ReplyMessage | ConnectError) => void>();
  let nextId = 0;
  let closed = false;

  // A reply to a call that already ended (deadline, cancel) finds nothing and is dropped.
  port.on("message", (replies: ReplyMessage[]) => {
    for (const reply of replies) pending.get(reply.id)?.(reply);
  });
  const failAll = () => {
    closed = true;
    for (const settle of [...pending.values()]) settle(notRunning());
  };
  port.on("close", failAll);
  const post = batchedPoster<ClientMessage>(port, (message, error) => {
    if (message.kind === "call" || message.kind === "stream") {
      pending.get(message.id)?.(new ConnectError(`the request cannot cross threads: ${error.message}`, Code.Internal));
    }
  });

  return {
    async unary(method, signal, timeoutMs, header, input, contextValues) {
      if (closed) throw notRunning();
      const message = isMessage(input, method.input) ? input : create(method.input, input);
      const id = nextId++;
      const outcome = await new Promise<UnaryReply | ConnectError>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const settle = (result: UnaryReply | ConnectError) => {
          pending.delete(id);
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve(result);
        };
        const onAbort = () => {
          post({ kind: "cancel", id });
          settle(new ConnectError("the call was canceled", Code.Canceled));
        };
        if (signal?.aborted) return resolve(new ConnectError("the call was canceled", Code.Canceled));
        // A unary call is only ever answered with a unary reply.
        pending.set(id, settle as (reply: ReplyMessage | ConnectError) => void);
        signal?.addEventListener("abort", onAbort, { once: true });
        if (timeoutMs !== undefined) {
          timer = setTimeout(() => settle(new ConnectError("the call's deadline passed", Code.DeadlineExceeded)), timeoutMs);
        }
        post({
          kind: "call",
          id,
          service: method.parent.typeName,
          method: method.name,
          timeoutMs,
          header: headerEntries(header as ConstructorParameters<typeof Headers>[0]),
          caller: contextValues && callerValueOf(contextValues),
          message,
          cancelable: signal !== undefined,
        });
      });
      if (outcome instanceof ConnectError) throw outcome;
      if ("error" in outcome) throw receivedError(outcome.error);
      return new PortResponse(method, outcome.header, outcome.trailer, outcome.message) as never;
    },
    async stream(method, signal, timeoutMs, header, input, contextValues) {
      if (closed) throw notRunning();
      if (method.methodKind !== "server_streaming") {
        throw new ConnectError(`${method.parent.typeName}.${method.name}: only server-streaming calls cross threads`, Code.Unimplemented);
      }
      let request: unknown;
      for await (const message of input) {
        request = message;
        break;
      }
      const message = isMessage(request, method.input) ? request : create(method.input, request as never);
      const id = nextId++;
      const stream = new PortStream(() => post({ kind: "cancel", id }), (count) => post({ kind: "more", id, count }), () => pending.delete(id));
      pending.set(id, (reply) => stream.receive(reply));
      stream.watch(signal, timeoutMs);
      post({
        kind: "stream",
        id,
        service: method.parent.typeName,
        method: method.name,
        timeoutMs,
        header: headerEntries(header as ConstructorParameters<typeof Headers>[0]),
        caller: contextValues && callerValueOf(contextValues),
        message,
      });
      const opened = await stream.opened;
      return {
        stream: true,
        service: method.parent,
        method,
        header: new Headers(opened),
        get trailer() {
          return new Headers(stream.trailer);
        },
        message: stream.messages(),
      } as never;
    },
    close() {
      failAll();
      port.close();
    },
  };
}

export interface ServePortCallsOptions {
  /**
   * Calls started per turn of the event loop; the answers of one turn's calls are posted before
   * the next turn's calls start. Default 4.
   *
   * A service on the embedded store answers a call within one turn (its awaits are all
   * microtasks), so starting every call of a batch at once would answer them all in one long turn
   * and post them together: the two threads would take turns working on one batch each instead
   * of overlapping. A few calls per turn stream the answers back while the rest are worked on.
   */
  callsPerTurn?: number;
}

/**
 * The serving side: each call that arrives on `port` goes to its service's transport (the
 * running server's direct transport), and its answer or error goes back.
 */
export function servePortCalls(
  port: MessagePort,
  services: Array<{ service: DescService; transport: Transport }>,
  options: ServePortCallsOptions = {},
): void {
  const callsPerTurn = options.callsPerTurn ?? 4;
  const methods = new Map<string, { method: DescMethodUnary; transport: Transport }>();
  const streamingMethods = new Map<string, { method: DescMethodServerStreaming; transport: Transport }>();
  for (const { service, transport } of services) {
    for (const method of service.methods) {
      if (method.methodKind === "unary") methods.set(`${service.typeName}/${method.name}`, { method: method as DescMethodUnary, transport });
      if (method.methodKind === "server_streaming") streamingMethods.set(`${service.typeName}/${method.name}`, { method: method as DescMethodServerStreaming, transport });
    }
  }
  /** The server streams in progress: their credit, and how to wake a stream waiting for some. */
  const credits = new Map<number, { credit: number; wake?: () => void }>();
  /** The calls in progress that their caller may still cancel. */
  const cancelable = new Map<number, AbortController>();
  const post = batchedPoster<ReplyMessage>(port, (reply, error) =>
    port.postMessage([{ id: reply.id, error: { code: Code.Internal, message: `the answer cannot cross threads: ${error.message}`, metadata: [], details: [] } }]),
  );
  /** Calls received and not yet started, in arrival order, with when they arrived. */
  const waiting: Array<{ call: CallMessage; arrivedAt: number }> = [];
  let turnScheduled = false;
  /** One turn: post the answers of the last turn's calls, then start the next few. */
  const turn = () => {
    post.flush();
    const started = waiting.splice(0, callsPerTurn);
    for (const { call, arrivedAt } of started) {
      // The deadline counts from arrival: time spent waiting for a turn is part of it. Whole
      // milliseconds, rounded up: a Connect transport refuses a fractional timeout.
      const timeoutMs = call.timeoutMs === undefined ? undefined : Math.ceil(call.timeoutMs - (performance.now() - arrivedAt));
      if (timeoutMs !== undefined && timeoutMs <= 0) {
        post({ id: call.id, error: crossingError(new ConnectError("the deadline passed before the call started", Code.DeadlineExceeded)) });
      } else void answer(call, timeoutMs).then(post);
    }
    turnScheduled = started.length > 0;
    if (turnScheduled) setImmediate(turn);
  };
  port.on("message", (messages: ClientMessage[]) => {
    const arrivedAt = performance.now();
    for (const message of messages) {
      if (message.kind === "call") waiting.push({ call: message, arrivedAt });
      else if (message.kind === "stream") void serveStream(message);
      else if (message.kind === "more") {
        const stream = credits.get(message.id);
        if (stream) {
          stream.credit += message.count;
          stream.wake?.();
        }
      } else if (!cancelWaiting(message.id)) {
        cancelable.get(message.id)?.abort(new ConnectError("the call was canceled", Code.Canceled));
        credits.get(message.id)?.wake?.();
      }
    }
    if (waiting.length > 0 && !turnScheduled) {
      turnScheduled = true;
      setImmediate(turn);
    }
  });

  /** Drops a call canceled before it started (its caller has settled already); false when it is not waiting. */
  function cancelWaiting(id: number): boolean {
    const position = waiting.findIndex(({ call }) => call.id === id);
    if (position === -1) return false;
    waiting.splice(position, 1);
    return true;
  }

  /** Serves a server stream at once (streams are few and long; they need no turns), cancelable like a call. */
  function serveStream(call: StreamMessage): Promise<void> {
    const controller = new AbortController();
    cancelable.set(call.id, controller);
    return serveStreamOn(post, streamingMethods.get(`${call.service}/${call.method}`), call, controller, credits).finally(() => cancelable.delete(call.id));
  }

  /** Runs one call with what is left of its deadline (`timeoutMs`, counted from its arrival). */
  async function answer(call: CallMessage, timeoutMs: number | undefined): Promise<ReplyMessage> {
    const target = methods.get(`${call.service}/${call.method}`);
    const controller = call.cancelable ? new AbortController() : undefined;
    if (controller) cancelable.set(call.id, controller);
    try {
      if (!target) throw new ConnectError(`${call.service}.${call.method} is not served here`, Code.Unimplemented);
      // The request arrived as a clone and the answer leaves as one: the direct transport need not copy them again.
      const values = createContextValues().set(messagesCopiedByCaller, true);
      if (call.caller) setCallerValue(values, call.caller);
      const response = await target.transport.unary(target.method, controller?.signal, timeoutMs, call.header, call.message as never, values);
      return { id: call.id, message: response.message, header: nonEmpty(response.header), trailer: nonEmpty(response.trailer) };
    } catch (thrown) {
      return { id: call.id, error: crossingError(ConnectError.from(thrown)) };
    } finally {
      if (controller) cancelable.delete(call.id);
    }
  }
}

/**
 * Serves one server stream: the service's messages go out one per credit the client granted; its
 * end, or its error, closes it. A cancel aborts the service's call (its signal), which ends the
 * service's reading.
 */
function serveStreamOn(
  post: (reply: ReplyMessage) => void,
  target: { method: DescMethodServerStreaming; transport: Transport } | undefined,
  call: StreamMessage,
  controller: AbortController,
  credits: Map<number, { credit: number; wake?: () => void }>,
): Promise<void> {
  const state: { credit: number; wake?: () => void } = { credit: STREAM_WINDOW };
  credits.set(call.id, state);
  const hasCredit = () =>
    new Promise<void>((resolve) => {
      if (state.credit > 0 || controller.signal.aborted) return resolve();
      state.wake = () => {
        state.wake = undefined;
        resolve();
      };
    });
  return (async () => {
    try {
      if (!target) throw new ConnectError(`${call.service}.${call.method} is not served here`, Code.Unimplemented);
      const values = createContextValues().set(messagesCopiedByCaller, true);
      if (call.caller) setCallerValue(values, call.caller);
      const response = await target.transport.stream(target.method, controller.signal, call.timeoutMs, call.header, singleMessage(call.message), values);
      post({ id: call.id, opened: true, header: nonEmpty(response.header) });
      const messages = response.message[Symbol.asyncIterator]();
      for (;;) {
        await hasCredit();
        if (controller.signal.aborted) {
          await messages.return?.();
          return;
        }
        const next = await messages.next();
        if (next.done) break;
        state.credit -= 1;
        post({ id: call.id, item: next.value });
      }
      post({ id: call.id, end: true, trailer: nonEmpty(response.trailer) });
    } catch (thrown) {
      post({ id: call.id, error: crossingError(ConnectError.from(thrown)) });
    } finally {
      credits.delete(call.id);
    }
  })();
}

async function* singleMessage(message: unknown): AsyncIterable<never> {
  yield message as never;
}

/**
 * The client's side of one server stream: `opened` resolves with the header (or rejects with an
 * error before it), `messages()` yields what arrives, granting credit for each message taken; a
 * reader that stops early, a deadline or the caller's signal cancels the call on the other side.
 */
class PortStream {
  readonly opened: Promise<HeaderEntries | undefined>;
  trailer: HeaderEntries | undefined;
  private open!: { resolve: (header: HeaderEntries | undefined) => void; reject: (error: ConnectError) => void };
  private readonly queue: unknown[] = [];
  private ended = false;
  private failure: ConnectError | undefined;
  private wake: (() => void) | undefined;
  private unwatch: () => void = () => {};

  constructor(
    private readonly cancel: () => void,
    private readonly grant: (count: number) => void,
    private readonly forget: () => void,
  ) {
    this.opened = new Promise((resolve, reject) => (this.open = { resolve, reject }));
    // Rejections before a reader awaits it are still the caller's to see, not unhandled ones.
    this.opened.catch(() => {});
  }

  /** Ends the stream with an error at the caller's deadline or abort. */
  watch(signal: AbortSignal | undefined, timeoutMs: number | undefined): void {
    const onAbort = () => this.stop(new ConnectError("the call was canceled", Code.Canceled));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => this.stop(new ConnectError("the call's deadline passed", Code.DeadlineExceeded)), timeoutMs);
    this.unwatch = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
  }

  receive(reply: ReplyMessage | ConnectError): void {
    if (reply instanceof ConnectError) return this.finish(reply);
    if ("error" in reply) return this.finish(receivedError(reply.error));
    if ("opened" in reply) this.open.resolve(reply.header);
    else if ("item" in reply) this.queue.push(reply.item);
    else if ("end" in reply) {
      this.trailer = reply.trailer;
      this.finish(undefined);
    }
    this.wake?.();
  }

  async *messages(): AsyncGenerator<never> {
    try {
      for (;;) {
        if (this.queue.length > 0) {
          const item = this.queue.shift();
          if (!this.ended) this.grant(1);
          yield item as never;
        } else if (this.failure) throw this.failure;
        else if (this.ended) return;
        else await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      // A reader that stopped before the end: the other side stops reading too.
      if (!this.ended) this.stop(new ConnectError("the call was canceled", Code.Canceled));
    }
  }

  /** Ends the call from this side: the other side is told, and a reader sees `error`. */
  private stop(error: ConnectError): void {
    if (this.ended) return;
    this.cancel();
    this.finish(error);
  }

  private finish(error: ConnectError | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = error;
    this.unwatch();
    this.forget();
    if (error) this.open.reject(error);
    else this.open.resolve(undefined);
    this.wake?.();
  }
}

/**
 * Posts messages in batches: one postMessage per turn of the event loop (at its check phase)
 * carries every message queued since, so a burst of calls pays the port's fixed cost, and wakes
 * the other thread, once. A batch that cannot be cloned is posted one message at a time, and
 * `uncloneable` hears of each message that cannot. `flush` posts what is queued at once.
 */
function batchedPoster<T>(port: MessagePort, uncloneable: (message: T, error: Error) => void): ((message: T) => void) & { flush(): void } {
  let queued: T[] | undefined;
  const flush = () => {
    if (queued === undefined) return;
    const batch = queued;
    queued = undefined;
    try {
      port.postMessage(batch);
    } catch {
      for (const message of batch) {
        try {
          port.postMessage([message]);
        } catch (error) {
          uncloneable(message, error as Error);
        }
      }
    }
  };
  const post = (message: T) => {
    if (queued) {
      queued.push(message);
      return;
    }
    queued = [message];
    setImmediate(flush);
  };
  return Object.assign(post, { flush });
}

/** An error as it crosses: details encoded to bytes (a remote caller's `findDetails` decodes them). */
function crossingError(error: ConnectError): ReceivedError {
  return {
    code: error.code,
    message: error.rawMessage,
    metadata: [...error.metadata],
    details: error.details.map((detail) =>
      "desc" in detail ? { type: detail.desc.typeName, value: toBinary(detail.desc, create(detail.desc, detail.value)) } : { type: detail.type, value: detail.value },
    ),
  };
}

function receivedError(error: ReceivedError): ConnectError {
  const received = new ConnectError(error.message, error.code, new Headers(error.metadata));
  for (const detail of error.details) received.details.push({ type: detail.type, value: detail.value, debug: undefined });
  return received;
}

/**
 * A unary answer whose header and trailer become `Headers` only when read: Connect's client reads
 * them only for `onHeader`/`onTrailer` callbacks, and a `Headers` costs a WebIDL conversion.
 */
class PortResponse {
  readonly stream = false;
  readonly service: DescService;
  private headers: Headers | undefined;
  private trailers: Headers | undefined;

  constructor(
    readonly method: DescMethodUnary,
    private readonly headerEntries: HeaderEntries | undefined,
    private readonly trailerEntries: HeaderEntries | undefined,
    readonly message: unknown,
  ) {
    this.service = method.parent;
  }

  get header(): Headers {
    this.headers ??= new Headers(this.headerEntries);
    return this.headers;
  }

  get trailer(): Headers {
    this.trailers ??= new Headers(this.trailerEntries);
    return this.trailers;
  }
}

function headerEntries(header: ConstructorParameters<typeof Headers>[0]): HeaderEntries {
  if (header === undefined) return [];
  if (header instanceof Headers) return [...header];
  if (Array.isArray(header)) return header.map(([name, value]) => [String(name), String(value)]);
  return Object.entries(header as Record<string, string>);
}

function nonEmpty(headers: Headers): HeaderEntries | undefined {
  const entries = [...headers];
  return entries.length > 0 ? entries : undefined;
}
