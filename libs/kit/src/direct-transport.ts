import {
  Code,
  ConnectError,
  createContextKey,
  createContextValues,
  createMethodImplSpec,
  createServiceImplSpec,
  type ConnectRouter,
  type ContextValues,
  type HandlerContext,
  type Interceptor,
  type MethodImplSpec,
  type StreamRequest,
  type StreamResponse,
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import {
  create,
  isMessage,
  toBinary,
  type DescMessage,
  type DescMethod,
  type DescMethodServerStreaming,
  type DescMethodUnary,
  type DescService,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import { copyMessage } from "./message-copy.js";

type UnaryNext = (request: UnaryRequest) => Promise<UnaryResponse>;
type StreamNext = (request: StreamRequest) => Promise<StreamResponse>;

/**
 * Set by a caller whose request is a copy no one else holds and who copies the response itself
 * (kit's port transport: both cross threads as structured clones), so the transport copies neither.
 */
export const messagesCopiedByCaller = createContextKey<boolean>(false, { description: "request and response are copied by the caller" });

/**
 * A Connect transport to services in this process that calls their unary methods directly: the
 * request and the response cross as deep copies (`copyMessage`: each side holds its own message,
 * at a fraction of the cost of encoding and decoding it), the server's interceptors run around
 * the call in order, the caller's deadline is enforced, and errors arrive as a remote caller
 * would see them (code, message, metadata and details encoded as bytes, no cause). What it leaves out is Connect's HTTP emulation (envelopes,
 * header serialization, async iterables, a linked abort controller per call). Server streams are
 * called directly too (each message copied as it is read, unless the caller copies); client and
 * bidirectional streams go to `streams` (Connect's in-memory router transport), which encodes and
 * decodes every message.
 */
export function createDirectTransport(options: {
  routes: (router: ConnectRouter) => void;
  /** Server interceptors, outermost first (as in ConnectRouterOptions). */
  interceptors: Interceptor[];
  streams: Transport;
}): Transport {
  const methods = recordMethods(options.routes);
  const dispatch = options.interceptors.reduceRight<UnaryNext>(
    (next, interceptor) => interceptor(next as Parameters<Interceptor>[0]) as UnaryNext,
    (request) => invoke(methods, request),
  );
  const dispatchStream = options.interceptors.reduceRight<StreamNext>(
    (next, interceptor) => interceptor(next as Parameters<Interceptor>[0]) as StreamNext,
    (request) => invokeServerStream(methods, request),
  );

  return {
    async unary(method, signal, timeoutMs, header, input, contextValues) {
      const copied = contextValues?.get(messagesCopiedByCaller) ?? false;
      // Copied even when just created: create() keeps message values of the init by reference.
      const request = normalize(method.input, input);
      const message = copied ? request : copyMessage(request);
      const call = new CallSignal(signal, timeoutMs);
      try {
        const response = await call.race(dispatch(new DirectRequest(method, call, timeoutMs, header as HeaderInit, contextValues ?? createContextValues(), message)));
        const answer = response.message as MessageShape<typeof method.output>;
        return {
          stream: false,
          service: method.parent,
          method,
          header: response.header,
          trailer: response.trailer,
          message: copied ? answer : copyMessage(answer),
        };
      } catch (thrown) {
        throw asReceived(thrown);
      } finally {
        call.done();
      }
    },
    async stream(method, signal, timeoutMs, header, input, contextValues) {
      if (method.methodKind !== "server_streaming") return options.streams.stream(method, signal, timeoutMs, header, input, contextValues);
      const copied = contextValues?.get(messagesCopiedByCaller) ?? false;
      const request = normalize(method.input, await firstOf(input));
      const call = new StreamCall(signal, timeoutMs);
      const streamRequest = new DirectStreamRequest(method, call, timeoutMs, header as HeaderInit, contextValues ?? createContextValues(), copied ? request : copyMessage(request));
      let response: StreamResponse;
      try {
        response = await dispatchStream(streamRequest);
      } catch (thrown) {
        call.done();
        throw asReceived(thrown);
      }
      return {
        stream: true,
        service: method.parent,
        method,
        header: response.header,
        trailer: response.trailer,
        message: delivered(response.message, call, copied),
      } as never;
    },
  };
}

/**
 * A server stream's messages as its caller reads them: one at a time (the handler runs on only
 * as they are read), copied unless the caller copies, and ended by the call's deadline or
 * cancellation with that error, never with a quiet end that would look complete.
 */
async function* delivered<T extends object>(messages: AsyncIterable<T>, call: StreamCall, copied: boolean): AsyncGenerator<T> {
  try {
    for await (const message of messages) {
      call.throwIfEnded();
      yield copied ? message : copyMessage(message);
    }
    call.throwIfEnded();
  } catch (thrown) {
    throw asReceived(thrown);
  } finally {
    call.done();
  }
}

/** The one request message of a unary-request stream. */
async function firstOf<T>(input: AsyncIterable<T>): Promise<T> {
  for await (const message of input) return message;
  throw new ConnectError("protocol error: missing request message", Code.InvalidArgument);
}

async function invokeServerStream(methods: Map<DescMethod, MethodImplSpec>, request: StreamRequest): Promise<StreamResponse> {
  const spec = methods.get(request.method);
  if (spec?.kind !== "server_streaming") {
    throw new ConnectError(`${request.service.typeName}.${request.method.name} is not implemented`, Code.Unimplemented);
  }
  const direct = request instanceof DirectStreamRequest ? request : DirectStreamRequest.fromCopy(request);
  const context = new DirectHandlerContext(direct);
  // A handler may refuse before its first message (a plain function returning an iterable): that
  // throws here, inside the interceptors, as a unary call's refusal does.
  const messages = spec.impl(await firstOf(direct.message), context);
  return { stream: true, service: request.service, method: request.method, header: context.responseHeader, trailer: context.responseTrailer, message: shaped(messages, request.method.output) };
}

async function* shaped<O extends DescMessage>(messages: AsyncIterable<MessageInitShape<O>>, schema: O): AsyncGenerator<MessageShape<O>> {
  for await (const message of messages) yield normalize(schema, message);
}

/** The unary implementations a routes function registers, by method. */
function recordMethods(routes: (router: ConnectRouter) => void): Map<DescMethod, MethodImplSpec> {
  const methods = new Map<DescMethod, MethodImplSpec>();
  const router: ConnectRouter = {
    handlers: [],
    service(service, implementation) {
      const spec = createServiceImplSpec(service, implementation);
      for (const method of Object.values(spec.methods)) methods.set(method.method, method);
      return router;
    },
    rpc(method, implementation) {
      methods.set(method, createMethodImplSpec(method, implementation));
      return router;
    },
  };
  routes(router);
  return methods;
}

/** Connect types a call's header as the DOM's HeadersInit, which Node's type library does not name. */
type HeaderInit = ConstructorParameters<typeof Headers>[0];

async function invoke(methods: Map<DescMethod, MethodImplSpec>, passed: UnaryRequest): Promise<UnaryResponse> {
  const request = passed instanceof DirectRequest ? (passed as DirectRequest) : DirectRequest.fromCopy(passed);
  const spec = methods.get(request.method);
  if (spec?.kind !== "unary") {
    throw new ConnectError(`${request.service.typeName}.${request.method.name} is not implemented`, Code.Unimplemented);
  }
  const context = new DirectHandlerContext(request);
  const output = await spec.impl(request.message, context);
  return {
    stream: false,
    service: request.service,
    method: request.method,
    header: context.responseHeader,
    trailer: context.responseTrailer,
    message: normalize(request.method.output, output),
  };
}

function normalize<D extends DescMessage>(schema: D, value: MessageInitShape<D>): MessageShape<D> {
  return isMessage(value, schema) ? (value) : create(schema, value);
}

/**
 * An error as a remote caller receives it: code, message and metadata, details as encoded bytes
 * (so `findDetails` decodes them), and nothing of the server's own objects or causes.
 */
function asReceived(thrown: unknown): ConnectError {
  const error = ConnectError.from(thrown);
  const received = new ConnectError(error.rawMessage, error.code, error.metadata);
  for (const detail of error.details) {
    received.details.push(
      "desc" in detail ? { type: detail.desc.typeName, value: toBinary(detail.desc, create(detail.desc, detail.value)), debug: undefined } : detail,
    );
  }
  return received;
}

/**
 * The request as interceptors and the method see it. A class rather than an object literal: the
 * lazy getters live on the prototype, so making one per call is a plain allocation. The headers
 * are made on first use: most calls are read through their context values (callerOf) and never
 * parse them. An interceptor may pass on a copy (`{ ...request, message }`): the copy has the own
 * fields but not the getters, and `fromCopy` gives them back.
 */
class DirectRequest<I extends DescMessage = DescMessage, O extends DescMessage = DescMessage> implements UnaryRequest<I, O> {
  readonly stream = false as const;
  readonly service: DescService;
  readonly requestMethod = "POST";
  readonly url: string;
  /** When the caller's deadline passes (epoch ms), for the handler's context. */
  readonly deadline: number | undefined;
  private headers: Headers | undefined;

  constructor(
    readonly method: DescMethodUnary<I, O>,
    private readonly call: CallSignal,
    timeoutMs: number | undefined,
    private readonly headerInit: ConstructorParameters<typeof Headers>[0],
    readonly contextValues: ContextValues,
    readonly message: MessageShape<I>,
  ) {
    this.service = method.parent;
    this.url = `in-process:///${method.parent.typeName}/${method.name}`;
    this.deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
  }

  /** A spread copy of a DirectRequest as one again: its own fields (any it replaced included) over the getters. */
  static fromCopy(copy: UnaryRequest): DirectRequest {
    return Object.setPrototypeOf({ ...copy }, DirectRequest.prototype) as DirectRequest;
  }

  get header(): Headers {
    this.headers ??= new Headers(this.headerInit);
    return this.headers;
  }

  get signal(): AbortSignal {
    return this.call.signal;
  }
}

/** A server stream's request as interceptors and the method see it (its one message as an iterable). */
class DirectStreamRequest<I extends DescMessage = DescMessage, O extends DescMessage = DescMessage> implements StreamRequest<I, O> {
  readonly stream = true as const;
  readonly service: DescService;
  readonly requestMethod = "POST";
  readonly url: string;
  readonly deadline: number | undefined;
  readonly header: Headers;
  readonly message: AsyncIterable<MessageShape<I>>;

  constructor(
    readonly method: DescMethodServerStreaming<I, O>,
    private readonly call: StreamCall,
    timeoutMs: number | undefined,
    headerInit: HeaderInit,
    readonly contextValues: ContextValues,
    request: MessageShape<I>,
  ) {
    this.service = method.parent;
    this.url = `in-process:///${method.parent.typeName}/${method.name}`;
    this.deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    this.header = new Headers(headerInit);
    this.message = (async function* () {
      yield request;
    })();
  }

  /** A spread copy (an interceptor's `{ ...request }`) as one again. */
  static fromCopy(copy: StreamRequest): DirectStreamRequest {
    return Object.setPrototypeOf({ ...copy }, DirectStreamRequest.prototype) as DirectStreamRequest;
  }

  get signal(): AbortSignal {
    return this.call.signal;
  }
}

/** What the method implementation gets as its context (a class for the same reason). */
class DirectHandlerContext implements HandlerContext {
  readonly service: DescService;
  readonly method: DescMethod;
  readonly protocolName = "in-process";
  readonly requestMethod: string;
  readonly url: string;
  readonly responseHeader = new Headers();
  readonly responseTrailer = new Headers();
  readonly values: ContextValues;

  constructor(private readonly request: DirectRequest | DirectStreamRequest) {
    this.service = request.service;
    this.method = request.method;
    this.requestMethod = request.requestMethod;
    this.url = request.url;
    this.values = request.contextValues;
  }

  get requestHeader(): Headers {
    return this.request.header;
  }

  get signal(): AbortSignal {
    return this.request.signal;
  }

  timeoutMs(): number | undefined {
    const deadline = this.request.deadline;
    return deadline === undefined ? undefined : deadline - Date.now();
  }
}

const notAborted = new AbortController().signal;

/**
 * A server stream's signal: aborted by the caller's signal or at the deadline, for as long as the
 * stream is read (not only until the handler answers, as a unary call's).
 */
class StreamCall {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    timeoutMs: number | undefined,
  ) {
    if (callerSignal?.aborted) this.onCallerAbort();
    else callerSignal?.addEventListener("abort", this.onCallerAbort, { once: true });
    if (timeoutMs !== undefined) this.timer = setTimeout(() => this.controller.abort(new ConnectError("the call's deadline passed", Code.DeadlineExceeded)), timeoutMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  throwIfEnded(): void {
    if (this.controller.signal.aborted) throw this.controller.signal.reason;
  }

  done(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener("abort", this.onCallerAbort);
  }

  private readonly onCallerAbort = () => this.controller.abort(new ConnectError("the call was canceled", Code.Canceled));
}

/**
 * The call's abort signal and deadline. The signal handlers see is made only when one asks for it
 * (most never do); the deadline is one timer, cleared when the call ends.
 */
class CallSignal {
  private controller: AbortController | undefined;
  private timer: NodeJS.Timeout | undefined;
  private expire: ((error: ConnectError) => void) | undefined;

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    private readonly timeoutMs: number | undefined,
  ) {}

  get signal(): AbortSignal {
    if (this.controller) return this.controller.signal;
    if (this.timeoutMs === undefined) return this.callerSignal ?? notAborted;
    this.controller = new AbortController();
    if (this.callerSignal) {
      const callerSignal = this.callerSignal;
      if (callerSignal.aborted) this.controller.abort(callerSignal.reason);
      else callerSignal.addEventListener("abort", () => this.controller?.abort(callerSignal.reason), { once: true });
    }
    return this.controller.signal;
  }

  /** The call's outcome, or DEADLINE_EXCEEDED / CANCELED when the deadline or the caller ends it first. */
  race<T>(call: Promise<T>): Promise<T> {
    if (this.timeoutMs === undefined && !this.callerSignal) return call;
    return new Promise<T>((resolve, reject) => {
      this.expire = (error) => {
        this.controller?.abort(error);
        reject(error);
      };
      if (this.callerSignal?.aborted) return this.expire(new ConnectError("the call was canceled", Code.Canceled));
      this.callerSignal?.addEventListener("abort", this.onCallerAbort, { once: true });
      if (this.timeoutMs !== undefined) {
        this.timer = setTimeout(() => this.expire?.(new ConnectError("the call's deadline passed", Code.DeadlineExceeded)), this.timeoutMs);
      }
      call.then(resolve, reject);
    });
  }

  done(): void {
    if (this.timer) clearTimeout(this.timer);
    this.callerSignal?.removeEventListener("abort", this.onCallerAbort);
    this.expire = undefined;
  }

  private readonly onCallerAbort = () => this.expire?.(new ConnectError("the call was canceled", Code.Canceled));
}
