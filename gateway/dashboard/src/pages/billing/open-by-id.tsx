import { useState, type FormEvent } from "react";
import { useLocation } from "wouter";

/** Opens a subscription (`sub_…`) or an invoice (`inv_…`) by its id, e.g. one read from a log. */
export function OpenById() {
  const [, navigate] = useLocation();
  const [id, setId] = useState("");
  const [problem, setProblem] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = id.trim();
    if (value.startsWith("sub_")) navigate(`/subscriptions/${encodeURIComponent(value)}`);
    else if (value.startsWith("inv_")) navigate(`/invoices/${encodeURIComponent(value)}`);
    else setProblem("Enter a subscription id (sub_…) or an invoice id (inv_…).");
  };
  return (
    <form className="billing-filters" onSubmit={submit}>
      <label>
        Open by id
        <input
          value={id}
          onChange={(event) => {
            setId(event.target.value);
            setProblem(undefined);
          }}
          placeholder="sub_… or inv_…"
          aria-invalid={problem ? true : undefined}
        />
      </label>
      <button type="submit">Open</button>
      {problem ? (
        <p className="field-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}
