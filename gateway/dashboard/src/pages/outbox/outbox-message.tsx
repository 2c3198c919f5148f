import { CopyId } from "../../components/copy-id";
import { DateTime } from "../../components/values";
import { codeIn, type OtpDevMessage } from "./types";

/** One kept message: who it was for, by which channel, when, its text and the code in it. */
export function OutboxMessage({ message }: { message: OtpDevMessage }) {
  const code = codeIn(message.body);
  return (
    <article className="outbox-message" aria-label={`Message to ${message.recipient}`}>
      <header className="outbox-message-header">
        <span className="outbox-channel">{message.channel === "sms" ? "SMS" : "E-mail"}</span>
        <span className="outbox-recipient">{message.recipient}</span>
        <DateTime iso={message.sentAt} />
      </header>
      {message.subject ? <p className="outbox-subject">{message.subject}</p> : null}
      <p className="outbox-body">{message.body}</p>
      {code ? (
        <p className="outbox-code">
          Code <CopyId value={code} label="code" />
        </p>
      ) : null}
      <p className="muted">
        OTP <CopyId value={message.otpId} label="OTP id" />
      </p>
    </article>
  );
}
