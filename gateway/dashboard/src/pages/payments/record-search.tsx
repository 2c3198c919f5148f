import { useState, type FormEvent } from "react";
import { kindOf } from "./resource-kinds";

/**
 * One box for a reference (filters the list by referenceId) or a resource id (chk_…, pi_…,
 * ref_…: opens its detail).
 */
export function RecordSearch({ reference, onReference, onOpen }: { reference: string; onReference: (reference: string) => void; onOpen: (id: string) => void }) {
  const [text, setText] = useState(reference);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (value && kindOf(value)) onOpen(value);
    else onReference(value);
  };
  return (
    <form className="toolbar" role="search" onSubmit={submit}>
      <label className="field">
        Reference or id
        <input type="search" value={text} onChange={(event) => setText(event.target.value)} placeholder="order-1001 or chk_…" />
      </label>
      <button type="submit">Search</button>
      {reference ? (
        <button
          type="button"
          onClick={() => {
            setText("");
            onReference("");
          }}
        >
          Clear reference
        </button>
      ) : null}
    </form>
  );
}
