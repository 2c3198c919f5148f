import type { Client } from "@connectrpc/connect";
import { OtpChannelSchema, type BillingService, type BillingSettings, type OtpService, type OtpSettings } from "@bayad/proto";
import { AppError, enumToText, fromConnectError } from "@bayad/kit";
import { dateField, optionalField } from "@bayad/public-resources";
import type { Project } from "../admin/projects.js";
import type { OperationHandlers } from "./operation.js";

export interface MessagesDeps {
  /** The project, or 404 naming it. */
  requireProject(projectId: string): Promise<Project>;
  /** Absent when the billing service is not deployed. */
  billing?: Client<typeof BillingService>;
  /** Absent when the OTP service is not deployed. */
  otp?: Client<typeof OtpService>;
}

type DevMessageJson = { sentAt?: string } & Record<string, unknown>;

/**
 * The operators' view of what Bayad sends customers: a project's billing settings (billing's),
 * its OTP settings per environment (the OTP service's),
 * and the development outbox's messages of a project, from both services that send (OTP codes;
 * billing's invoices and receipts), newest first.
 */
export function messagesRoutes(deps: MessagesDeps): OperationHandlers {
  const requireBilling = () => {
    if (!deps.billing) throw new AppError("NOT_IMPLEMENTED", "The billing service is not deployed.");
    return deps.billing;
  };
  const requireOtp = () => {
    if (!deps.otp) throw new AppError("NOT_IMPLEMENTED", "The OTP service is not deployed.");
    return deps.otp;
  };

  return {
    async getBillingSettings({ params }, { call }) {
      await deps.requireProject(params.projectId);
      const response = await requireBilling().getBillingSettings({ projectId: params.projectId }, call);
      return { status: 200, data: billingSettingsToJson(response.billingSettings) };
    },

    async putBillingSettings({ params, body }, { call }) {
      await deps.requireProject(params.projectId);
      const response = await requireBilling().putBillingSettings(
        {
          billingSettings: {
            projectId: params.projectId,
            smsEnabled: body.smsEnabled,
            defaultLocale: body.defaultLocale ?? "",
            supportContact: body.supportContact ?? "",
            ...(body.dunning ? { dunning: { steps: body.dunning.steps, finalAction: body.dunning.finalAction ?? "" } } : {}),
          },
        },
        call,
      );
      return { status: 200, data: billingSettingsToJson(response.billingSettings) };
    },

    async getOtpSettings({ params }, { call }) {
      await deps.requireProject(params.projectId);
      const response = await requireOtp().getOtpSettings({ projectId: params.projectId, environment: params.environment }, call);
      return { status: 200, data: otpSettingsToJson(response.otpSettings) };
    },

    async putOtpSettings({ params, body }, { call }) {
      await deps.requireProject(params.projectId);
      const response = await requireOtp().putOtpSettings(
        {
          otpSettings: {
            projectId: params.projectId,
            environment: params.environment,
            smsCountries: body.smsCountries,
            appName: body.appName ?? "",
            templates: { ...body.templates },
          },
        },
        call,
      );
      return { status: 200, data: otpSettingsToJson(response.otpSettings) };
    },

    async listDevMessages({ query }, { call }) {
      const kind = query.kind;
      const messages: DevMessageJson[] = [];
      if (deps.otp && (kind === undefined || kind === "otp")) {
        const held = await outboxOff(deps.otp.listDevMessages({ recipient: "", projectId: query.projectId }, call));
        for (const message of held?.messages ?? []) {
          messages.push({
            messageId: message.messageId,
            kind: "otp",
            channel: enumToText(OtpChannelSchema, message.channel),
            recipient: message.recipient,
            projectId: message.projectId,
            locale: message.locale || "en",
            resourceId: message.otpId,
            ...optionalField("subject", message.subject),
            body: message.body,
            ...dateField("sentAt", message.sentAt),
          });
        }
      }
      if (deps.billing && kind !== "otp") {
        const held = await outboxOff(deps.billing.listOutboxMessages({ projectId: query.projectId, kind: kind ?? "" }, call));
        for (const message of held?.messages ?? []) {
          messages.push({
            messageId: message.messageId,
            kind: message.kind,
            channel: message.channel,
            recipient: message.recipient,
            projectId: message.projectId,
            locale: message.locale,
            resourceId: message.invoiceId,
            ...optionalField("subject", message.subject),
            body: message.body,
            ...optionalField("html", message.html),
            ...dateField("sentAt", message.sentAt),
          });
        }
      }
      messages.sort((a, b) => (b.sentAt ?? "").localeCompare(a.sentAt ?? ""));
      return { status: 200, data: messages };
    },
  };
}

/** A service whose outbox is off holds nothing to show: its 404 is an empty list here. */
async function outboxOff<T>(answer: Promise<T>): Promise<T | undefined> {
  try {
    return await answer;
  } catch (error) {
    const failure = fromConnectError(error);
    if (failure.code === "RESOURCE_NOT_FOUND") return undefined;
    throw failure;
  }
}

function billingSettingsToJson(settings: BillingSettings | undefined) {
  if (!settings) throw new Error("the billing service answered no settings");
  if (!settings.dunning) throw new Error("the billing service answered no dunning schedule");
  return {
    projectId: settings.projectId,
    smsEnabled: settings.smsEnabled,
    defaultLocale: settings.defaultLocale,
    ...optionalField("supportContact", settings.supportContact),
    dunning: {
      steps: settings.dunning.steps.map((step) => ({ offsetDays: step.offsetDays })),
      finalAction: settings.dunning.finalAction as "mark_unpaid" | "cancel",
    },
  };
}

function otpSettingsToJson(settings: OtpSettings | undefined) {
  if (!settings) throw new Error("the OTP service answered no settings");
  return {
    projectId: settings.projectId,
    environment: settings.environment as "test" | "live",
    smsCountries: settings.smsCountries,
    appName: settings.appName,
    templates: {
      ...optionalField("en", settings.templates.en),
      ...optionalField("fil", settings.templates.fil),
    },
  };
}
