import type http2 from "node:http2";
import { Http2SessionManager } from "@connectrpc/connect-node";

const ignore = () => {};

/**
 * connect-node's HTTP/2 session manager, with every session it opens keeping an "error" listener
 * for good.
 *
 * A service that shuts down gracefully sends GOAWAY. On a session with no open streams the manager
 * destroys the session with an error that Node.js raises only once the socket has closed; if a
 * request has moved the manager to a new session in between, the old one has lost its listeners
 * and the error crashes the gateway (connectrpc/connect-es#1768: a rolling restart of a service
 * took its gateways down with it). While the manager listens, it still sees every error; after
 * that, an error is about a session nothing uses any more.
 */
export class GuardedSessionManager extends Http2SessionManager {
  private readonly guarded = new WeakSet<http2.ClientHttp2Session>();

  override async request(
    method: string,
    path: string,
    headers: http2.OutgoingHttpHeaders,
    options: Omit<http2.ClientSessionRequestOptions, "signal">,
  ): Promise<http2.ClientHttp2Stream> {
    const stream = await super.request(method, path, headers, options);
    const session = stream.session as http2.ClientHttp2Session | undefined;
    if (session && !this.guarded.has(session)) {
      this.guarded.add(session);
      session.on("error", ignore);
    }
    return stream;
  }
}
