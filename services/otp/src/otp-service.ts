import type { ServiceImpl } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { DevMessageSchema, OtpSettingsSchema, type OtpService } from "@bayad/proto";
import { AppError, addResealCounts, callerOf, mutatingCallerOf, type Environment } from "@bayad/kit";
import type { OtpSettings } from "./settings/otp-settings.js";
import { generateOtp } from "./otps/generate.js";
import { getOtp } from "./otps/get-otp.js";
import type { OtpDeps } from "./otps/otp-deps.js";
import { channelFromProto, channelToProto, generateResponse, statusResponse, verifyResponse } from "./otps/otp.js";
import { verifyOtp } from "./otps/verify.js";

export type { OtpDeps as OtpServiceDeps } from "./otps/otp-deps.js";

const settingsToProto = (settings: OtpSettings) =>
  create(OtpSettingsSchema, {
    projectId: settings.projectId,
    environment: settings.environment,
    smsCountries: settings.smsCountries,
    appName: settings.appName,
    templates: { ...settings.templates },
  });

/** The environment an operator's settings request names: test or live, else 400. */
function environmentOf(value: string): Environment {
  if (value !== "test" && value !== "live") {
    throw new AppError("VALIDATION_FAILED", "The environment must be test or live.", { details: ["environment: must be test or live"] });
  }
  return value;
}

/** The OtpService rpc handlers: read the caller, call the domain, map to the response. */
export function createOtpService(deps: OtpDeps): ServiceImpl<typeof OtpService> {
  return {
    async generateOtp(request, context) {
      const record = await generateOtp(deps, mutatingCallerOf(context), {
        recipient: request.recipient,
        channel: channelFromProto(request.channel),
        channels: request.channels.map((entry) => ({ channel: channelFromProto(entry.channel), recipient: entry.recipient })),
        digits: request.digits,
        ttlSeconds: request.ttlSeconds,
        clientAddress: request.clientAddress,
        locale: request.locale,
      });
      return generateResponse(record);
    },

    async verifyOtp(request, context) {
      const { record, verified } = await verifyOtp(deps, mutatingCallerOf(context), { otpId: request.otpId, code: request.code });
      return verifyResponse(record, verified);
    },

    async getOtpStatus(request, context) {
      return statusResponse(await getOtp(deps, callerOf(context), request.otpId), deps.now());
    },

    /**
     * Operators only (the gateway's admin API), so no project scope: the outbox is the
     * development stand-in for every recipient's phone and mailbox. Its messages carry the full
     * recipient and the code, as a mailbox would. 404 while no channel uses the outbox.
     */
    async listDevMessages(request) {
      if (!deps.devOutbox) throw new AppError("RESOURCE_NOT_FOUND", "The development outbox is off.");
      if (request.recipient.trim() === "" && request.projectId === "") {
        throw new AppError("VALIDATION_FAILED", "The recipient is required.", { details: ["recipient: is required"] });
      }
      const messages = await deps.devOutbox.list({
        ...(request.recipient.trim() !== "" ? { recipient: request.recipient } : {}),
        ...(request.projectId !== "" ? { projectId: request.projectId } : {}),
        kind: "otp",
      });
      return {
        messages: messages.map((message) =>
          create(DevMessageSchema, {
            messageId: message._id,
            otpId: message.resourceId,
            channel: channelToProto(message.channel),
            recipient: message.recipient,
            subject: message.subject,
            body: message.body,
            sentAt: timestampFromDate(message.sentAt),
            kind: message.kind,
            projectId: message.projectId,
            locale: message.locale,
          }),
        ),
      };
    },

    /** Operators only (the gateway's admin API checks the project exists). */
    async getOtpSettings(request) {
      return { otpSettings: settingsToProto(await deps.settings.get(request.projectId, environmentOf(request.environment))) };
    },

    async putOtpSettings(request) {
      const input = request.otpSettings;
      if (!input) throw new AppError("VALIDATION_FAILED", "The OTP settings are required.", { details: ["otpSettings: is required"] });
      const saved = await deps.settings.put(
        {
          projectId: input.projectId,
          environment: environmentOf(input.environment),
          smsCountries: input.smsCountries,
          appName: input.appName,
          templates: input.templates,
        },
        deps.now(),
      );
      return { otpSettings: settingsToProto(saved) };
    },

    /**
     * Operators only, like listDevMessages: the messages awaiting a resend, and the development
     * outbox's bodies, moved to OTP_HASH_SECRETS' newest key.
     */
    async resealOtpMessages() {
      const pending = await deps.repository.resealSecrets(deps.sealingKeys);
      return { counts: deps.devOutbox ? addResealCounts(pending, await deps.devOutbox.resealSecrets()) : pending };
    },
  };
}
