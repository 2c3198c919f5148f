import { useState } from "react";

/** An id in monospace with a button that copies it; ids are long and read back to support. */
export function CopyId({ value, label }: { value: string | null | undefined; label?: string }) {
  const [copied, setCopied] = useState(false);
  if (!value) return <span className="muted">—</span>;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  };
  return (
    <span className="copy-id">
      <code>{value}</code>
      <button
        type="button"
        className="copy-button"
        aria-label={`Copy ${label ?? "id"} ${value}`}
        onClick={(event) => {
          event.stopPropagation();
          void copy();
        }}
      >
        {copied ? "Copied" : "Copy"}
      </button>
    </span>
  );
}
