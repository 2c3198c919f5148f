import "./fields.css";
import type { ReactNode } from "react";

/** A resource's fields as label/value pairs (a detail page's body). Entries with no value are left out. */
export function Fields({ label, entries }: { label: string; entries: [string, ReactNode][] }) {
  return (
    <dl className="fields" aria-label={label}>
      {entries
        .filter(([, value]) => value !== undefined && value !== null && value !== "")
        .map(([name, value]) => (
          <div key={name} className="field">
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}
