import { CopyId } from "../../components/copy-id";
import { DateTime } from "../../components/values";
import { localeLabel } from "../../format";
import { channelLabel, codeIn, type OtpDevMessage } from "./types";

/** One kept message: who it was for, when, by which channel and in which language, its text and the code in it. */
export function OutboxMessage({ message }: { message: OtpDevMessage }) {
  const code = codeIn(message.body);
  return (
    <article className="outbox-message" aria-label={`Message to ${message.recipient}`}>
      <header className="outbox-message-header">
        <span className="outbox-recipient">{message.recipient}</span>
        <DateTime iso={message.sentAt} />
      </header>
      <dl className="outbox-facts" aria-label="How it was sent">
        <div>
          <dt>Channel</dt>
          <dd className="outbox-channel">{channelLabel(message.channel)}</dd>
        </div>
        <div>
          <dt>Language</dt>
          <dd className="outbox-locale">{localeLabel(message.locale)}</dd>
        </div>
      </dl>
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
