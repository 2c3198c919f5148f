import { AppError } from "@bayad/kit";
import type { MessageLocale } from "@bayad/messaging";
import type { CollectionDef, Store } from "@bayad/store";
import { checkDunningSchedule, defaultDunningSchedule, isScheduleProblem, type DunningSchedule } from "../dunning/dunning-schedule.js";

/** How a project's invoices reach its customers, as `billing_settings` keeps it (one per project, both environments). */
export interface BillingSettingsRecord {
  /** The project's id. */
  _id: string;
  /** Whether customers with a phone are also sent an SMS. Default false. */
  smsEnabled: boolean;
  /** The language of customers who have none. Default `en`. */
  defaultLocale: MessageLocale;
  /** Where customers are told to ask; absent: not shown. */
  supportContact?: string;
  /** When unpaid invoices' customers are reminded, and what follows; absent (settings put before dunning): the defaults. */
  dunning?: DunningSchedule;
  updatedAt: Date;
}

export type BillingSettings = Omit<BillingSettingsRecord, "_id" | "updatedAt" | "dunning"> & { projectId: string; dunning: DunningSchedule };

const billingSettingsCollection: CollectionDef = { name: "billing_settings" };

export const defaultBillingSettings = (projectId: string): BillingSettings => ({
  projectId,
  smsEnabled: false,
  defaultLocale: "en",
  dunning: defaultDunningSchedule(),
});

/** A put's dunning schedule as given; absent: the defaults. */
export interface DunningScheduleInput {
  steps: ReadonlyArray<{ offsetDays: number }>;
  finalAction: string;
}

const MAX_SUPPORT_CONTACT = 255;

/** The only code that knows the `billing_settings` collection. */
export function createBillingSettingsRepository(store: Store) {
  const settings = store.collection<BillingSettingsRecord>(billingSettingsCollection);
  return {
    /** The project's settings, or the defaults when none were put. */
    async get(projectId: string): Promise<BillingSettings> {
      const found = await settings.findOne({ _id: projectId });
      if (!found) return defaultBillingSettings(projectId);
      const { _id, updatedAt: _updatedAt, dunning, ...rest } = found;
      return { projectId: _id, ...rest, dunning: dunning ?? defaultDunningSchedule() };
    },

    /** Replaces the project's settings; a bad value is a 400 naming its field, and nothing is written. */
    async put(
      input: { projectId: string; smsEnabled: boolean; defaultLocale: string; supportContact: string; dunning?: DunningScheduleInput },
      now: Date,
    ): Promise<BillingSettings> {
      if (input.projectId.trim() === "") throw invalid("projectId", "is required");
      const defaultLocale = input.defaultLocale === "" ? "en" : input.defaultLocale;
      if (defaultLocale !== "en" && defaultLocale !== "fil") throw invalid("defaultLocale", "must be en or fil");
      const supportContact = input.supportContact.trim();
      if (supportContact.length > MAX_SUPPORT_CONTACT || /[\r\n<>]/.test(supportContact)) {
        throw invalid("supportContact", `must be one line of at most ${MAX_SUPPORT_CONTACT} characters, without < or >`);
      }
      const dunning = input.dunning ? checkDunningSchedule(input.dunning) : defaultDunningSchedule();
      if (isScheduleProblem(dunning)) throw invalid(dunning.field, dunning.problem);
      const record: BillingSettingsRecord = {
        _id: input.projectId,
        smsEnabled: input.smsEnabled,
        defaultLocale,
        ...(supportContact !== "" ? { supportContact } : {}),
        dunning,
        updatedAt: now,
      };
      const { _id, ...fields } = record;
      await settings.updateOne({ _id }, { $set: fields, ...(supportContact === "" ? { $unset: { supportContact: true } } : {}) }, { upsert: true });
      return this.get(record._id);
    },
  };
}

export type BillingSettingsRepository = ReturnType<typeof createBillingSettingsRepository>;

function invalid(field: string, problem: string): AppError {
  return new AppError("VALIDATION_FAILED", `The billing settings' ${field} ${problem}.`, { details: [`${field}: ${problem}`] });
}
