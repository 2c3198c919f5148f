import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** How the server answers the end of DATA for a recipient; "accept" by default. */
export type DataAnswer = "accept" | { reject: number } | "hang";

/**
 * A real SMTP server on 127.0.0.1 (random port, no TLS, authentication optional) that keeps
 * what it receives, and answers the end of DATA as `answerFor` says.
 */
export async function startSmtpSink(answerFor: (recipient: string) => DataAnswer = () => "accept") {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
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
        received.push({ from, to, raw: Buffer.concat(chunks).toString("utf8") });
        callback(null);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
