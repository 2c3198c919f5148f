import { Counter, metricOnce, type Registry } from "@bayad/kit";
import type { OtpChannelName } from "../recipients/recipient.js";

/** Why a generate was refused by a fraud signal. */
export type FraudRefusal = "prefix" | "client" | "suspicious";

export interface OtpMetrics {
  generated(labels: { project: string; environment: string; channel: OtpChannelName }): void;
  verified(labels: { project: string; environment: string; channel: OtpChannelName }): void;
  refused(labels: { project: string; environment: string; reason: FraudRefusal }): void;
}

/**
 * `bayad_otp_codes_generated_total` and `bayad_otp_codes_verified_total` {project, environment,
 * channel}: their rates' quotient is the verified ratio (docs/api/otp.md gives the PromQL), which
 * falls when codes go unverified, as pumped ones do. `bayad_otp_fraud_refusals_total` {project,
 * environment, reason} counts generates the fraud signals refused. Nothing is kept without a registry.
 */
export function registerOtpMetrics(registry: Registry | undefined): OtpMetrics {
  if (!registry) return { generated: () => undefined, verified: () => undefined, refused: () => undefined };
  const counter = (name: string, help: string, labelNames: string[]) =>
    metricOnce(registry, name, () => new Counter({ name, help, labelNames, registers: [registry] }));
  const generated = counter("bayad_otp_codes_generated_total", "OTP codes generated (stored and handed to a sender), by project, environment and channel.", ["project", "environment", "channel"]);
  const verified = counter("bayad_otp_codes_verified_total", "OTP codes verified (the correct code, once), by project, environment and channel.", ["project", "environment", "channel"]);
  const refused = counter("bayad_otp_fraud_refusals_total", "OTP generates refused by a fraud signal (prefix or client limit, suspicious prefix), by project, environment and reason.", ["project", "environment", "reason"]);
  return {
    generated: (labels) => generated.inc(labels),
    verified: (labels) => verified.inc(labels),
    refused: (labels) => refused.inc(labels),
  };
}
