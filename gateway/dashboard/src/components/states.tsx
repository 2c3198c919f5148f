import type { ReactNode } from "react";
import { ApiError } from "../api/client";

export function Loading({ what }: { what: string }) {
  return (
    <p className="state loading" role="status">
      Loading {what}…
    </p>
  );
}

/** Nothing to show yet, and what to do about it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state empty" role="status">
      <p className="state-title">{title}</p>
      {children ? <div className="state-hint">{children}</div> : null}
    </div>
  );
}

/** A failed load or action: the gateway's code and message, details, and what to try. */
export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const apiError = error instanceof ApiError ? error : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="state error" role="alert">
      <p className="state-title">
        {apiError ? <code className="error-code">{apiError.code}</code> : null} {message}
      </p>
      {apiError?.details.length ? (
        <ul className="error-details">
          {apiError.details.map((detail) => (
            <li key={detail}>{detail}</li>
          ))}
        </ul>
      ) : null}
      {apiError?.correlationId ? (
        <p className="muted">Correlation id {apiError.correlationId} (quote it when asking for help).</p>
      ) : null}
      {retry ? (
        <button type="button" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
