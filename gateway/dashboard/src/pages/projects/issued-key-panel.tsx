import { useState } from "react";
import type { IssuedApiKey } from "./types";

/**
 * A key just issued, its secret shown this once with a Copy button. The secret lives only in the
 * issuing form's state: "Done" drops it, and nothing writes it to storage or a query cache.
 */
export function IssuedKeyPanel({ issued, onDone }: { issued: IssuedApiKey; onDone: () => void }) {
  const [copied, setCopied] = useState<"yes" | "failed">();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(issued.apiKey);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <div className="issued-key" role="dialog" aria-labelledby="issued-key-title" aria-describedby="issued-key-note">
      <h3 id="issued-key-title">New {issued.environment} API key</h3>
      <p id="issued-key-note" className="issued-key-note">
        Copy this key now and keep it secret: <strong>you won't see it again</strong>. Bayad stores only its hash; if it is lost, issue
        a new key and revoke this one.
      </p>
      <p className="issued-key-secret">
        <code aria-label="API key secret">{issued.apiKey}</code>
      </p>
      <p>
        <button type="button" onClick={() => void copy()}>
          {copied === "yes" ? "Copied" : "Copy key"}
        </button>{" "}
        <button type="button" onClick={onDone}>
          Done, I have copied it
        </button>
      </p>
      {copied === "failed" ? <p className="muted">The browser did not allow copying; select the key and copy it by hand.</p> : null}
      <p className="muted">
        Key id <code>{issued.keyId}</code>
      </p>
    </div>
  );
}
