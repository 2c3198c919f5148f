import { useState, type FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { useLocation, useSearch } from "wouter";
import { ApiError, request } from "../../api/client";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { OutboxMessage } from "./outbox-message";
import type { OtpDevMessage } from "./types";

function HowMessagesArrive() {
  return (
    <>
      In test mode the OTP service keeps each message here instead of sending an SMS or e-mail. Issue a service token with the{" "}
      <code>otp:generate</code> scope (<code>POST /admin/v1/service-tokens</code>, environment <code>test</code>), then call{" "}
      <code>POST /api/v1/shared/otp/generate</code> with it for a recipient; search for that recipient here to read the code.
    </>
  );
}

/** The development outbox: the OTP messages kept for a recipient, newest first. */
export function OutboxPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const recipient = new URLSearchParams(search).get("recipient") ?? "";
  const [draft, setDraft] = useState(recipient);
  const messages = useQuery({
    queryKey: ["admin", "otp-messages", recipient],
    queryFn: () => request<OtpDevMessage[]>("/admin/v1/otp/messages", { query: { recipient } }),
    enabled: recipient !== "",
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(`/outbox?${new URLSearchParams({ recipient: draft.trim() }).toString()}`);
  };

  let body;
  if (recipient === "")
    body = (
      <EmptyState title="Search for a recipient">
        <HowMessagesArrive />
      </EmptyState>
    );
  else if (messages.isPending) body = <Loading what="messages" />;
  else if (messages.error instanceof ApiError && messages.error.status === 404)
    body = (
      <EmptyState title="The development outbox is off">
        This gateway sends OTP messages through a real SMS or e-mail provider (<code>OTP_SMS_SENDER</code> /{" "}
        <code>OTP_EMAIL_SENDER</code>), so nothing is kept here. <code>npm start</code> keeps them.
      </EmptyState>
    );
  else if (messages.error) body = <ErrorState error={messages.error} retry={() => void messages.refetch()} />;
  else if (messages.data.length === 0)
    body = (
      <EmptyState title={`No messages for ${recipient}`}>
        Check the recipient is written exactly as it was given to generate (an e-mail address, or a number such as +639171234567).{" "}
        <HowMessagesArrive />
      </EmptyState>
    );
  else
    body = (
      <div className="outbox-messages">
        {messages.data.map((message) => (
          <OutboxMessage key={message.messageId} message={message} />
        ))}
      </div>
    );

  return (
    <section className="page outbox-page">
      <h1>Development outbox</h1>
      <p className="muted">OTP messages kept in test mode, newest first, so you can read codes without a real SMS or e-mail provider.</p>
      <form className="outbox-search" role="search" onSubmit={submit}>
        <label>
          Recipient
          <input
            type="search"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder="maria@example.ph or +639171234567"
            minLength={3}
            maxLength={320}
            required
          />
        </label>
        <button type="submit">Show messages</button>
        {recipient ? (
          <button type="button" onClick={() => void messages.refetch()} disabled={messages.isFetching}>
            Refresh
          </button>
        ) : null}
      </form>
      {body}
    </section>
  );
}
