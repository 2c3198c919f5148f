import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** Whether the session that carried it was encrypted (implicit TLS or after STARTTLS). */
  secure: boolean;
}

/** TLS from the first byte (port 465 style), or plain text upgraded with STARTTLS; the server's key and certificate (PEM). */
export interface SinkTls {
  mode: "implicit" | "starttls";
  key: string;
  cert: string;
}

/** How the server answers the end of DATA for a recipient; "accept" by default. */
export type DataAnswer = "accept" | { reject: number } | "hang";

/**
 * A real SMTP server on 127.0.0.1 (random port, authentication optional) that keeps what it
 * receives, and answers the end of DATA as `answerFor` says. Without `tls` it speaks plain text
 * only and offers no STARTTLS.
 */
export async function startSmtpSink(answerFor: (recipient: string) => DataAnswer = () => "accept", options: { tls?: SinkTls } = {}) {
  const received: ReceivedMail[] = [];
  const { tls } = options;
  const server = new SMTPServer({
    authOptional: true,
    ...(tls ? { secure: tls.mode === "implicit", key: tls.key, cert: tls.cert } : { disabledCommands: ["STARTTLS"] }),
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: "test" });
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((address) => address.address);
        const answer = answerFor(to[0] ?? "");
        if (answer === "hang") return;
        if (answer !== "accept") {
          const error = Object.assign(new Error("Mailbox unavailable"), { responseCode: answer.reject });
          callback(error);
          return;
        }
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        received.push({ from, to, raw: Buffer.concat(chunks).toString("utf8"), secure: session.secure });
        callback(null);
      });
    },
  });
  // A client that refuses the certificate drops the connection mid-handshake, which the server
  // reports as an error: expected here, and not a failure of the test.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
