import { useState, type FormEvent } from "react";

export interface SubscriptionFilter {
  status: string;
  referenceId: string;
}

const statuses = ["trialing", "pending", "active", "past_due", "unpaid", "cancelled"];

/** Status and exact reference filters of the subscriptions list; applied on submit. */
export function SubscriptionFilters({ value, onChange }: { value: SubscriptionFilter; onChange: (filter: SubscriptionFilter) => void }) {
  const [referenceId, setReferenceId] = useState(value.referenceId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ ...value, referenceId: referenceId.trim() });
  };
  return (
    <form className="billing-filters" role="search" onSubmit={submit}>
      <label>
        Status
        <select value={value.status} onChange={(event) => onChange({ ...value, status: event.target.value })}>
          <option value="">Any</option>
          {statuses.map((status) => (
            <option key={status} value={status}>
              {status.replace("_", " ")}
            </option>
          ))}
        </select>
      </label>
      <label>
        Reference
        <input type="search" value={referenceId} onChange={(event) => setReferenceId(event.target.value)} placeholder="membership-42" />
      </label>
      <button type="submit">Filter</button>
    </form>
  );
}
