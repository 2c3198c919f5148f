import { request } from "../../api/client";
import { humanize } from "../../format";
import { projectPath } from "../projects/types";
import type { BillingSettings, DunningSchedule } from "./types";

/**
 * A project's billing settings (docs/api/billing.md, "Invoices delivered to customers" and
 * "Dunning"): one for both modes, read and written with the admin API.
 */
export const billingSettingsPath = (projectId: string) => `${projectPath(projectId)}/billing-settings`;

export const billingSettingsQuery = (projectId: string) => ({
  queryKey: ["admin", "billing-settings", projectId],
  queryFn: () => request<BillingSettings>(billingSettingsPath(projectId)),
});

export type FinalAction = NonNullable<DunningSchedule["finalAction"]>;

export const finalActionLabels: Record<FinalAction, string> = { mark_unpaid: "mark unpaid", cancel: "cancel the subscription" };

/** The schedule the API applies when a project set none (its `finalAction` absent: `mark_unpaid`). */
export const defaultFinalAction: FinalAction = "mark_unpaid";

const days = (values: number[]) => {
  const list = values.length === 1 ? String(values[0]) : `${values.slice(0, -1).join(", ")} and ${values[values.length - 1]}`;
  return `${list} ${values.length === 1 && values[0] === 1 ? "day" : "days"}`;
};

/**
 * A schedule in words, days counted from each invoice's due date: "Reminders 3 days before, on
 * the day, 3 and 7 days after; then mark unpaid." Steps as the API keeps them (sorted); none:
 * dunning is off.
 */
export function describeDunning(schedule: DunningSchedule | undefined): string {
  if (!schedule) return "The default schedule.";
  const offsets = schedule.steps.map((step) => step.offsetDays);
  if (offsets.length === 0) return "No reminders and no final action (dunning is off).";
  const before = offsets.filter((offset) => offset < 0).map((offset) => -offset);
  const after = offsets.filter((offset) => offset > 0);
  const parts = [
    ...(before.length > 0 ? [`${days(before)} before`] : []),
    ...(offsets.includes(0) ? ["on the day"] : []),
    ...(after.length > 0 ? [`${days(after)} after`] : []),
  ];
  return `${offsets.length === 1 ? "A reminder" : "Reminders"} ${parts.join(", ")}; then ${finalActionLabel(schedule.finalAction ?? defaultFinalAction)}.`;
}

/** "mark_unpaid" → "mark unpaid"; an action the dashboard does not know yet, as the API names it. */
export function finalActionLabel(action: string): string {
  return Object.hasOwn(finalActionLabels, action) ? finalActionLabels[action as FinalAction] : humanize(action);
}
