import { useId, useState, type FormEvent } from "react";
import { kindOf } from "./resource-kinds";
import { viewFilterErrors, type ViewFilters } from "./url-filters";

/** The typed part of the search: applied together by Search, so the list is not asked again on every key. */
export type SearchFields = Pick<ViewFilters, "reference" | "customer" | "metadata" | "amountMin" | "amountMax" | "account">;

export const searchFieldNames: (keyof SearchFields)[] = ["reference", "customer", "metadata", "amountMin", "amountMax", "account"];

const labels: Record<keyof SearchFields, { label: string; placeholder: string }> = {
  reference: { label: "Reference or id", placeholder: "order-1001 or chk_…" },
  customer: { label: "Customer", placeholder: "cus_…" },
  metadata: { label: "Metadata (key=value)", placeholder: "orderId=ORD-1001" },
  amountMin: { label: "Amount from (₱)", placeholder: "100.00" },
  amountMax: { label: "Amount to (₱)", placeholder: "5000.00" },
  account: { label: "Provider account", placeholder: "pa_…" },
};

/**
 * The records search: a reference or a resource id (chk_…, pi_…, ref_…: opens its detail),
 * customer, metadata key=value, an amount range in pesos and a provider account. Malformed
 * metadata or amounts are refused here, field by field, and nothing is applied.
 */
export function RecordSearch({ view, onSearch, onOpen }: { view: ViewFilters; onSearch: (next: ViewFilters) => void; onOpen: (id: string) => void }) {
  const id = useId();
  const [draft, setDraft] = useState<SearchFields>(() => Object.fromEntries(searchFieldNames.map((name) => [name, view[name]])) as SearchFields);
  const [errors, setErrors] = useState<ReturnType<typeof viewFilterErrors>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = Object.fromEntries(searchFieldNames.map((name) => [name, draft[name].trim()])) as SearchFields;
    if (trimmed.reference && kindOf(trimmed.reference)) {
      onOpen(trimmed.reference);
      return;
    }
    const next = { ...view, ...trimmed };
    const found = viewFilterErrors(next);
    setErrors(found);
    if (Object.keys(found).length === 0) onSearch(next);
  };
  const searched = searchFieldNames.some((name) => view[name] !== "");
  return (
    <form className="toolbar" role="search" onSubmit={submit}>
      {searchFieldNames.map((name) => {
        const error = name in errors ? errors[name as keyof typeof errors] : undefined;
        return (
          <div className="field" key={name}>
            <label htmlFor={`${id}-${name}`}>{labels[name].label}</label>
            <input
              id={`${id}-${name}`}
              type={name === "reference" ? "search" : "text"}
              inputMode={name === "amountMin" || name === "amountMax" ? "decimal" : undefined}
              value={draft[name]}
              onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
              placeholder={labels[name].placeholder}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-${name}-error` : undefined}
            />
            {error ? (
              <span className="field-problem" id={`${id}-${name}-error`} role="alert">
                {error}
              </span>
            ) : null}
          </div>
        );
      })}
      <button type="submit">Search</button>
      {searched ? (
        <button
          type="button"
          onClick={() => {
            const cleared = Object.fromEntries(searchFieldNames.map((name) => [name, ""])) as SearchFields;
            setDraft(cleared);
            setErrors({});
            onSearch({ ...view, ...cleared });
          }}
        >
          Clear search
        </button>
      ) : null}
    </form>
  );
}
