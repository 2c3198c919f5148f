import { createConnection, createServer, type AddressInfo, type Server, type Socket } from "node:net";

/**
 * A TCP relay between a client under test and a real server, so a test can take the server away
 * from that one client (and give it back on the same address) while other tests keep using it.
 */
export interface TcpProxy {
  /** The target URL with host and port replaced by the proxy's. */
  readonly url: string;
  /** Destroys every relayed connection and stops listening: connects are refused. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const targetPort = Number(target.port);
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;

  function track(socket: Socket): void {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    // An error on either side just ends the pair; the client sees a dropped connection.
    socket.on("error", () => socket.destroy());
  }

  function relay(client: Socket): void {
    const upstream = createConnection(targetPort, target.hostname);
    track(client);
    track(upstream);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  }

  function listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      const next = createServer(relay);
      next.once("error", reject);
      next.listen(port, "127.0.0.1", () => {
        port = (next.address() as AddressInfo).port;
        server = next;
        resolve();
      });
    });
  }

  async function cut(): Promise<void> {
    const current = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  }

  await listen();
  const url = new URL(targetUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    url: url.toString().replace(/\/$/, ""),
    cut,
    async restore() {
      if (!server) await listen();
    },
    close: cut,
  };
}
