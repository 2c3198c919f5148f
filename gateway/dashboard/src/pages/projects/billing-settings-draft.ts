import { defaultFinalAction, type FinalAction } from "../billing/billing-settings";
import type { BillingSettings, BillingSettingsPutRequest, MessageLocale } from "../billing/types";

/** The billing settings form as typed: steps as text, so a half-typed offset is kept. */
export interface BillingSettingsDraft {
  smsEnabled: boolean;
  defaultLocale: MessageLocale;
  supportContact: string;
  steps: string[];
  finalAction: FinalAction;
}

export function billingSettingsDraft(settings: BillingSettings): BillingSettingsDraft {
  return {
    smsEnabled: settings.smsEnabled,
    defaultLocale: settings.defaultLocale,
    supportContact: settings.supportContact ?? "",
    steps: (settings.dunning?.steps ?? []).map((step) => String(step.offsetDays)),
    finalAction: settings.dunning?.finalAction ?? defaultFinalAction,
  };
}

/**
 * The put request of a draft, or the steps that are not whole numbers (by index). Steps go in the
 * order typed, so the API's details (`dunning.steps[1].offsetDays`) name the field shown; the
 * range, the order and the last step's sign are the API's to check. An empty support contact
 * clears it.
 */
export function billingSettingsRequest(draft: BillingSettingsDraft): { body: BillingSettingsPutRequest } | { stepProblems: Map<number, string> } {
  const stepProblems = new Map<number, string>();
  const steps = draft.steps.map((text, index) => {
    const value = text.trim().replace(/^[−–]/, "-");
    if (!/^-?\d{1,3}$/.test(value)) stepProblems.set(index, "Enter whole days: negative before the due date, 0 on it, positive after it.");
    return { offsetDays: Number(value) };
  });
  if (stepProblems.size > 0) return { stepProblems };
  const supportContact = draft.supportContact.trim();
  return {
    body: {
      smsEnabled: draft.smsEnabled,
      defaultLocale: draft.defaultLocale,
      ...(supportContact !== "" ? { supportContact } : {}),
      dunning: { steps, finalAction: draft.finalAction },
    },
  };
}
