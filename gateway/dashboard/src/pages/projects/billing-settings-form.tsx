import { useState, type FormEvent, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ApiError, request } from "../../api/client";
import { detailsByField } from "../../api/field-details";
import { FieldProblems } from "../../components/field-problems";
import { ErrorState } from "../../components/states";
import { localeLabels } from "../../format";
import { billingSettingsPath, billingSettingsQuery, finalActionLabels, type FinalAction } from "../billing/billing-settings";
import type { BillingSettings, MessageLocale } from "../billing/types";
import { billingSettingsDraft, billingSettingsRequest, type BillingSettingsDraft } from "./billing-settings-draft";

/** At most this many steps (the API's limit too). */
const maxSteps = 10;

/**
 * Edits a project's billing settings as read: SMS, the default language, the support contact,
 * the dunning schedule's steps (days from the due date) and final action. Nothing is checked
 * here but that steps are whole numbers: the API's refusal (400, details naming the field) is
 * shown beside the field it names, and nothing is saved.
 */
export function BillingSettingsForm({
  projectId,
  settings,
  onSaved,
  onCancel,
}: {
  projectId: string;
  settings: BillingSettings;
  onSaved: (saved: BillingSettings) => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => billingSettingsDraft(settings));
  const [stepProblems, setStepProblems] = useState<Map<number, string>>(new Map());
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const stepField = (index: number) => `dunning.steps[${index}].offsetDays`;
  const shownFields = new Set(["smsEnabled", "defaultLocale", "supportContact", "dunning.steps", "dunning.finalAction", ...draft.steps.map((_, i) => stepField(i))]);
  const apiError = failure instanceof ApiError ? failure : undefined;
  const { byField, other } = detailsByField(apiError?.details ?? [], (field) => shownFields.has(field));
  const problemsOf = (field: string) => byField.get(field);
  const describedBy = (id: string, field: string) => (problemsOf(field) ? `${id}-problem` : undefined);

  const change = (next: Partial<BillingSettingsDraft>) => setDraft((current) => ({ ...current, ...next }));
  const changeStep = (index: number, text: string) => change({ steps: draft.steps.map((step, at) => (at === index ? text : step)) });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const read = billingSettingsRequest(draft);
    if ("stepProblems" in read) {
      setStepProblems(read.stepProblems);
      setFailure(undefined);
      return;
    }
    setStepProblems(new Map());
    setBusy(true);
    setFailure(undefined);
    try {
      // Admin operations take no Idempotency-Key; a put is the same whenever repeated.
      const saved = await request<BillingSettings>(billingSettingsPath(projectId), { method: "PUT", body: read.body });
      queryClient.setQueryData(billingSettingsQuery(projectId).queryKey, saved);
      onSaved(saved);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const field = (id: string, label: ReactNode, control: ReactNode, problemField: string) => (
    <div className="settings-field">
      <label htmlFor={id}>{label}</label>
      {control}
      <FieldProblems id={`${id}-problem`} problems={problemsOf(problemField)} />
    </div>
  );

  return (
    <form className="stacked-form billing-settings-form" aria-label="Edit billing settings" onSubmit={(event) => void submit(event)}>
      <div className="settings-field">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.smsEnabled}
            onChange={(event) => change({ smsEnabled: event.target.checked })}
            aria-describedby={describedBy("billing-sms", "smsEnabled")}
          />{" "}
          Also send an SMS to customers with a phone
        </label>
        <FieldProblems id="billing-sms-problem" problems={problemsOf("smsEnabled")} />
      </div>
      {field(
        "billing-locale",
        "Default language (for customers who set none)",
        <select
          id="billing-locale"
          value={draft.defaultLocale}
          onChange={(event) => change({ defaultLocale: event.target.value === "fil" ? "fil" : "en" })}
          aria-invalid={problemsOf("defaultLocale") ? true : undefined}
          aria-describedby={describedBy("billing-locale", "defaultLocale")}
        >
          {(Object.keys(localeLabels) as MessageLocale[]).map((locale) => (
            <option key={locale} value={locale}>
              {localeLabels[locale]}
            </option>
          ))}
        </select>,
        "defaultLocale",
      )}
      {field(
        "billing-support",
        "Support contact (shown in every message; empty: none)",
        <input
          id="billing-support"
          value={draft.supportContact}
          maxLength={255}
          placeholder="help@kape.ph"
          onChange={(event) => change({ supportContact: event.target.value })}
          aria-invalid={problemsOf("supportContact") ? true : undefined}
          aria-describedby={describedBy("billing-support", "supportContact")}
        />,
        "supportContact",
      )}
      <fieldset className="dunning-steps" aria-describedby={describedBy("billing-steps", "dunning.steps")}>
        <legend>Reminders, in days from the due date (−30 to 60; negative before it, 0 on it; sorted, the last 0 or more; none: no dunning)</legend>
        {draft.steps.map((step, index) => {
          const id = `billing-step-${index}`;
          const problems = [...(stepProblems.has(index) ? [stepProblems.get(index) ?? ""] : []), ...(problemsOf(stepField(index)) ?? [])];
          return (
            <div className="settings-field dunning-step" key={index}>
              <label htmlFor={id}>Step {index + 1}</label>
              <input
                id={id}
                inputMode="numeric"
                value={step}
                size={5}
                required
                onChange={(event) => changeStep(index, event.target.value)}
                aria-invalid={problems.length > 0 ? true : undefined}
                aria-describedby={problems.length > 0 ? `${id}-problem` : undefined}
              />
              <button type="button" aria-label={`Remove step ${index + 1}`} onClick={() => change({ steps: draft.steps.filter((_, at) => at !== index) })}>
                Remove
              </button>
              <FieldProblems id={`${id}-problem`} problems={problems} />
            </div>
          );
        })}
        <button type="button" disabled={draft.steps.length >= maxSteps} onClick={() => change({ steps: [...draft.steps, ""] })}>
          Add a step
        </button>
        <FieldProblems id="billing-steps-problem" problems={problemsOf("dunning.steps")} />
      </fieldset>
      {field(
        "billing-final-action",
        "After the last reminder",
        <select
          id="billing-final-action"
          value={draft.finalAction}
          onChange={(event) => change({ finalAction: event.target.value === "cancel" ? "cancel" : "mark_unpaid" })}
          aria-invalid={problemsOf("dunning.finalAction") ? true : undefined}
          aria-describedby={describedBy("billing-final-action", "dunning.finalAction")}
        >
          {(Object.keys(finalActionLabels) as FinalAction[]).map((action) => (
            <option key={action} value={action}>
              {finalActionLabels[action].replace(/^./, (first) => first.toUpperCase())}
            </option>
          ))}
        </select>,
        "dunning.finalAction",
      )}
      <div className="route-actions">
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save billing settings"}
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
      {stepProblems.size > 0 ? (
        <p className="state error" role="alert">
          Nothing was saved: correct the steps marked above.
        </p>
      ) : null}
      {failure ? (
        <div className="billing-settings-failure">
          {byField.size > 0 ? <p className="muted">Nothing was saved: the problems are shown beside the fields above.</p> : null}
          <ErrorState error={apiError ? new ApiError(apiError.status, apiError.code, apiError.message, other, apiError.correlationId) : failure} />
        </div>
      ) : null}
    </form>
  );
}
