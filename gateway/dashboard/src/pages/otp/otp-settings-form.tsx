import { useState, type FormEvent, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { DEFAULT_APP_NAME } from "@bayad/messaging/sms-template";
import { ApiError, request, type Environment } from "../../api/client";
import { detailsByField } from "../../api/field-details";
import { FieldProblems } from "../../components/field-problems";
import { ErrorState } from "../../components/states";
import { localeLabels } from "../../format";
import { otpSettingsPath, otpSettingsQuery } from "./otp-settings";
import { countryProblems, isCountriesField, otpSettingsDraft, otpSettingsRequest, templateLocales, type OtpSettingsDraft } from "./otp-settings-draft";
import { TemplateLengthNote } from "./template-length-note";
import type { OtpSettings } from "./types";

/** A refused save: the error, and the countries as they were sent (the details name them by place). */
interface Failure {
  error: unknown;
  countries: string[];
}

const shownFields = new Set(["appName", ...templateLocales.map((locale) => `templates.${locale}`)]);

/**
 * Edits a project's OTP settings in one environment: the countries SMS may go to, the app name
 * and the English and Filipino templates, each template's length counted as it is typed. Nothing
 * is refused here: the API's refusal (400, details naming the field) shows beside the field it
 * names, and nothing is saved.
 */
export function OtpSettingsForm({ projectId, environment, settings }: { projectId: string; environment: Environment; settings: OtpSettings }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => otpSettingsDraft(settings));
  const [failure, setFailure] = useState<Failure>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  const apiError = failure?.error instanceof ApiError ? failure.error : undefined;
  const { byField, other } = detailsByField(apiError?.details ?? [], (field) => shownFields.has(field) || isCountriesField(field));
  const problemsOf = (field: string) => (field === "smsCountries" ? countryProblems(byField, failure?.countries ?? []) : byField.get(field));
  const invalid = (field: string) => ((problemsOf(field)?.length ?? 0) > 0 ? true : undefined);
  const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(" ") || undefined;

  const change = (next: Partial<OtpSettingsDraft>) => {
    setSaved(false);
    setDraft((current) => ({ ...current, ...next }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = otpSettingsRequest(draft);
    setBusy(true);
    setSaved(false);
    setFailure(undefined);
    try {
      // Admin operations take no Idempotency-Key; a put is the same whenever repeated.
      const stored = await request<OtpSettings>(otpSettingsPath(projectId, environment), { method: "PUT", body });
      queryClient.setQueryData(otpSettingsQuery(projectId, environment).queryKey, stored);
      setDraft(otpSettingsDraft(stored));
      setSaved(true);
    } catch (error) {
      setFailure({ error, countries: body.smsCountries });
    } finally {
      setBusy(false);
    }
  };

  const field = (id: string, label: ReactNode, hint: ReactNode, control: ReactNode, problemField: string) => (
    <div className="settings-field">
      <label htmlFor={id}>{label}</label>
      {control}
      <span className="field-hint muted" id={`${id}-hint`}>
        {hint}
      </span>
      <FieldProblems id={`${id}-problem`} problems={problemsOf(problemField)} />
    </div>
  );

  return (
    <form className="stacked-form otp-settings-form" aria-label="OTP settings" onSubmit={(event) => void submit(event)}>
      {field(
        "otp-countries",
        "Countries SMS may go to",
        <>
          ISO country codes, separated by commas: <code>PH, SG</code>. A number of any other country is refused (<code>SMS_COUNTRY_NOT_ALLOWED</code>);
          empty: no SMS at all. E-mail is not limited.
        </>,
        <input
          id="otp-countries"
          value={draft.countries}
          placeholder="PH"
          autoCapitalize="characters"
          spellCheck={false}
          onChange={(event) => change({ countries: event.target.value })}
          aria-invalid={invalid("smsCountries")}
          aria-describedby={describedBy("otp-countries-hint", invalid("smsCountries") && "otp-countries-problem")}
        />,
        "smsCountries",
      )}
      {field(
        "otp-app-name",
        "App name",
        <>
          What messages call the sender (<code>{"{app}"}</code>). Empty: {DEFAULT_APP_NAME}.
        </>,
        <input
          id="otp-app-name"
          value={draft.appName}
          placeholder={DEFAULT_APP_NAME}
          maxLength={30}
          onChange={(event) => change({ appName: event.target.value })}
          aria-invalid={invalid("appName")}
          aria-describedby={describedBy("otp-app-name-hint", invalid("appName") && "otp-app-name-problem")}
        />,
        "appName",
      )}
      <fieldset className="otp-templates" aria-describedby="otp-templates-hint">
        <legend>Messages</legend>
        <p className="field-hint muted" id="otp-templates-hint">
          Placeholders: <code>{"{code}"}</code> the code (required), <code>{"{app}"}</code> the app name, <code>{"{minutes}"}</code> how long the code lasts. With a
          10-digit code each message must fit one SMS: 160 characters of the SMS alphabet (GSM-7). E-mail gets the same text. Empty: the built-in
          message.
        </p>
        {templateLocales.map((locale) => {
          const id = `otp-template-${locale}`;
          const problemField = `templates.${locale}`;
          return (
            <div className="settings-field" key={locale}>
              <label htmlFor={id}>{localeLabels[locale]} template</label>
              <textarea
                id={id}
                rows={3}
                value={draft.templates[locale]}
                onChange={(event) => change({ templates: { ...draft.templates, [locale]: event.target.value } })}
                aria-invalid={invalid(problemField)}
                aria-describedby={describedBy(`${id}-length`, invalid(problemField) && `${id}-problem`)}
              />
              <TemplateLengthNote id={`${id}-length`} locale={locale} template={draft.templates[locale]} appName={draft.appName} />
              <FieldProblems id={`${id}-problem`} problems={problemsOf(problemField)} />
            </div>
          );
        })}
      </fieldset>
      <div className="route-actions">
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save OTP settings"}
        </button>
      </div>
      {saved ? (
        <p className="notice" role="status">
          OTP settings saved for {environment === "live" ? "live" : "test"} mode.
        </p>
      ) : null}
      {failure ? (
        <div className="otp-settings-failure">
          {byField.size > 0 ? <p className="muted">Nothing was saved: the problems are shown beside the fields above.</p> : null}
          <ErrorState error={apiError ? new ApiError(apiError.status, apiError.code, apiError.message, other, apiError.correlationId) : failure.error} />
        </div>
      ) : null}
    </form>
  );
}
