import type { Client } from "@connectrpc/connect";
import { OtpChannelOutcomeSchema, OtpChannelSchema, OtpStatusSchema, type OtpChannelAttempt, type OtpService } from "@bayad/proto";
import { enumToText, textToEnum } from "@bayad/kit";
import type { OperationHandlers } from "./operation.js";
import { dateField, optionalField } from "@bayad/public-resources";
import { addressGroup } from "../http/client-address.js";

const channelText = (channel: number) => enumToText(OtpChannelSchema, channel);

/** What became of each entry of a generate's channel list, as the public JSON shows it. */
function channelAttempts(attempts: OtpChannelAttempt[]) {
  return attempts.map((attempt) => ({
    channel: channelText(attempt.channel),
    target: attempt.target,
    outcome: enumToText(OtpChannelOutcomeSchema, attempt.outcome),
    ...optionalField("code", attempt.code),
    ...optionalField("reason", attempt.reason),
  }));
}

/** The shared OTP interface ⇄ OtpService rpcs, and the operators' view of its development outbox. */
export function otpRoutes(otp: Client<typeof OtpService>): OperationHandlers {
  return {
    async generateOtp({ body }, { call }) {
      const response = await otp.generateOtp(
        {
          recipient: body.recipient ?? "",
          channel: body.channel ? textToEnum(OtpChannelSchema, body.channel) : 0,
          channels: (body.channels ?? []).map((entry) => ({ channel: textToEnum(OtpChannelSchema, entry.channel), recipient: entry.recipient })),
          digits: body.digits,
          ttlSeconds: body.ttlSeconds,
          // The end user's address as the merchant's backend saw it: the per-client limit counts
          // it, an IPv6 one by its /64 (one subscriber's whole allocation).
          clientAddress: body.clientIp === undefined ? "" : addressGroup(body.clientIp),
          locale: body.locale ?? "",
        },
        call,
      );
      return {
        status: 201,
        data: {
          otpId: response.otpId,
          ...dateField("expiresAt", response.expiresAt),
          channel: channelText(response.channel),
          recipient: response.recipient,
          target: response.target,
          channels: channelAttempts(response.channels),
        },
      };
    },

    async verifyOtp({ body }, { call }) {
      const response = await otp.verifyOtp({ otpId: body.otpId, code: body.code }, call);
      return {
        status: 200,
        data: { verified: response.verified, otpId: response.otpId, target: response.target, channel: channelText(response.channel) },
      };
    },

    async getOtpStatus({ params }, { call }) {
      const response = await otp.getOtpStatus({ otpId: params.otpId }, call);
      return {
        status: 200,
        data: {
          otpId: response.otpId,
          status: enumToText(OtpStatusSchema, response.status),
          target: response.target,
          channel: channelText(response.channel),
          ...dateField("expiresAt", response.expiresAt),
          channels: channelAttempts(response.channels),
        },
      };
    },

    async listOtpDevMessages({ query }, { call }) {
      const response = await otp.listDevMessages({ recipient: query.recipient }, call);
      return {
        status: 200,
        data: response.messages.map((message) => ({
          messageId: message.messageId,
          otpId: message.otpId,
          channel: channelText(message.channel),
          recipient: message.recipient,
          locale: (message.locale || "en") as "en" | "fil",
          ...optionalField("subject", message.subject),
          body: message.body,
          ...dateField("sentAt", message.sentAt),
        })),
      };
    },
  };
}
