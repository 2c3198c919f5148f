import type { AddressInfo } from "node:net";
import type Koa from "koa";

/** `app` listening on a free loopback port: its base URL, and a close that ends kept-alive connections too. */
export async function serveApp(app: Koa): Promise<{ url: string; close(): Promise<void> }> {
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
