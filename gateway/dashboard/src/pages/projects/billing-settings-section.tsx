import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Fields } from "../../components/fields";
import { ErrorState, Loading } from "../../components/states";
import { localeLabels } from "../../format";
import { billingSettingsQuery, describeDunning } from "../billing/billing-settings";
import { BillingSettingsForm } from "./billing-settings-form";

/**
 * How the project's invoices reach its customers and how unpaid ones are followed up
 * (docs/api/billing.md, "Invoices delivered to customers" and "Dunning"): the settings as read
 * (the defaults when never set), and editing them. One for test and live alike.
 */
export function BillingSettingsSection({ projectId }: { projectId: string }) {
  const settings = useQuery(billingSettingsQuery(projectId));
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);

  let body;
  if (settings.isPending) body = <Loading what="the billing settings" />;
  else if (settings.error) body = <ErrorState error={settings.error} retry={() => void settings.refetch()} />;
  else
    body = (
      <>
        <Fields
          label="Billing settings"
          entries={[
            ["SMS", settings.data.smsEnabled ? "On: customers with a phone also get an SMS" : "Off: e-mail only"],
            ["Default language", localeLabels[settings.data.defaultLocale]],
            ["Support contact", settings.data.supportContact ?? <span className="muted">None</span>],
            ["Dunning", describeDunning(settings.data.dunning)],
          ]}
        />
        {saved && !editing ? (
          <p className="notice" role="status">
            Billing settings saved.
          </p>
        ) : null}
        {editing ? (
          <BillingSettingsForm
            projectId={projectId}
            settings={settings.data}
            onSaved={() => {
              setSaved(true);
              setEditing(false);
            }}
            onCancel={() => setEditing(false)}
          />
        ) : (
          <button
            type="button"
            onClick={() => {
              setSaved(false);
              setEditing(true);
            }}
          >
            Edit billing settings
          </button>
        )}
      </>
    );

  return (
    <section aria-labelledby="billing-settings-title">
      <h2 id="billing-settings-title">Billing</h2>
      <p className="muted">
        How the project's invoices, receipts and reminders reach its customers, and what follows an unpaid invoice. For test and live alike.
      </p>
      {body}
    </section>
  );
}
