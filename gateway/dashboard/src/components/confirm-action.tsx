import { useState, type ReactNode } from "react";
import "./confirm-action.css";

/**
 * A button whose action asks first: pressing it shows `question` with a confirm and a cancel
 * button; only the confirm runs `onConfirm`. For actions that stop something (disable, revoke).
 */
export function ConfirmAction({
  label,
  name,
  confirmLabel,
  question,
  busy,
  onConfirm,
}: {
  label: string;
  /** The accessible name when the label alone is ambiguous ("Revoke key_…" beside "Revoke"). */
  name?: string;
  confirmLabel: string;
  question: ReactNode;
  busy?: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="danger" aria-label={name} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <div className="confirm" role="group" aria-label={name ?? label}>
      <p>{question}</p>
      <button
        type="button"
        className="danger"
        disabled={busy}
        onClick={() => {
          onConfirm();
          setAsking(false);
        }}
      >
        {confirmLabel}
      </button>{" "}
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </div>
  );
}
