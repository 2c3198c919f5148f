import net from "node:net";

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: any;
}

/**
 * One TCP connection to a server, written to byte for byte and read back response by response:
 * for what fetch and node:http never send (two requests on one keep-alive connection after a
 * refused body, a malformed request line, a header trickled byte by byte) and for seeing when the
 * server closes the connection.
 */
export interface RawConnection {
  write(data: string | Buffer): Promise<void>;
  /** The next whole response (a Content-Length body), or a rejection if the connection ends first. */
  response(): Promise<RawResponse>;
  /** Resolves once the server has closed the connection (its FIN or a reset). */
  closed: Promise<void>;
  isClosed(): boolean;
  destroy(): void;
}

export async function openConnection(baseUrl: string): Promise<RawConnection> {
  const url = new URL(baseUrl);
  const socket = net.connect({ host: url.hostname, port: Number(url.port) });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let buffered = Buffer.alloc(0);
  let ended = false;
  let wake: (() => void) | undefined;
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const onEnd = () => {
    ended = true;
    markClosed();
    wake?.();
  };
  socket.on("data", (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake?.();
  });
  socket.on("end", onEnd);
  socket.on("close", onEnd);
  // A reset after the server closed is how some closes look; the close event follows it.
  socket.on("error", () => undefined);

  const waitForData = () => new Promise<void>((resolve) => (wake = resolve));

  async function response(): Promise<RawResponse> {
    for (;;) {
      const headEnd = buffered.indexOf("\r\n\r\n");
      if (headEnd >= 0) {
        const [statusLine, ...lines] = buffered.subarray(0, headEnd).toString("latin1").split("\r\n");
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const colon = line.indexOf(":");
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const length = Number(headers["content-length"] ?? "0");
        if (buffered.length >= headEnd + 4 + length) {
          const text = buffered.subarray(headEnd + 4, headEnd + 4 + length).toString("utf8");
          buffered = buffered.subarray(headEnd + 4 + length);
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          return { status: Number(statusLine!.split(" ")[1]), headers, text, body };
        }
      }
      if (ended) throw new Error(`the connection ended before a whole response: ${JSON.stringify(buffered.toString("latin1").slice(0, 200))}`);
      await waitForData();
    }
  }

  return {
    write: (data) => new Promise<void>((resolve, reject) => socket.write(data, (error) => (error ? reject(error) : resolve()))),
    response,
    closed,
    isClosed: () => ended,
    destroy: () => socket.destroy(),
  };
}
