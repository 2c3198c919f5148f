import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface HttpServer {
  server: Server;
  /** Where clients reach it: a wildcard host is given as 127.0.0.1, an IPv6 one in brackets. */
  url: string;
  /** Stops listening and ends every connection, held ones (a "timeout" fault) and idle keep-alive ones too. */
  close: () => Promise<void>;
}

/** A server listening on `host:port` (a free port for 0), once it listens; requests are the caller's to handle. */
export async function startHttpServer(host: string, port: number): Promise<HttpServer> {
  const server = createServer();
  await listen(server, port, host);
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${urlHost(host)}:${address.port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

export function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}
