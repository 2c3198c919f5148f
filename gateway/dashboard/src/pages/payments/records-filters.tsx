import { useId } from "react";
import { humanize, methodLabel } from "../../format";
import { paymentMethods, recordTypes } from "./records";
import type { ViewFilters } from "./url-filters";

/** Statuses of every record type, for the status filter. */
const statuses = [
  "created",
  "pending",
  "processing",
  "requires_action",
  "paid",
  "succeeded",
  "failed",
  "cancelled",
  "expired",
  "active",
  "past_due",
  "open",
  "void",
  "uncollectible",
  "archived",
];

/** Type, status, payment method and created-between filters; each change applies at once. */
export function RecordsFilters({ filters, onChange }: { filters: ViewFilters; onChange: (next: ViewFilters) => void }) {
  const id = useId();
  const set = (name: keyof ViewFilters) => (event: { target: { value: string } }) => onChange({ ...filters, [name]: event.target.value });
  return (
    <div className="toolbar" role="group" aria-label="Filters">
      <div className="field">
        <label htmlFor={`${id}-type`}>Type</label>
        <select id={`${id}-type`} value={filters.type} onChange={set("type")}>
          <option value="">All types</option>
          {recordTypes.map((type) => (
            <option key={type} value={type}>
              {humanize(type)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-status`}>Status</label>
        <select id={`${id}-status`} value={filters.status} onChange={set("status")}>
          <option value="">All statuses</option>
          {statuses.map((status) => (
            <option key={status} value={status}>
              {humanize(status)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-method`}>Payment method</label>
        <select id={`${id}-method`} value={filters.method} onChange={set("method")}>
          <option value="">All methods</option>
          {paymentMethods.map((method) => (
            <option key={method} value={method}>
              {methodLabel(method)}
            </option>
          ))}
        </select>
      </div>
      <label className="field">
        Created from
        <input type="date" value={filters.from} onChange={set("from")} />
      </label>
      <label className="field">
        Created to
        <input type="date" value={filters.to} onChange={set("to")} />
      </label>
    </div>
  );
}
