import { Counter, metricOnce, type Registry } from "@bayad/kit";
import type { OtpChannelName } from "../recipients/recipient.js";

/**
 * Why a generate (or one entry of its channel list) was refused before any send: the project's
 * country permissions, or a fraud signal (prefix or client limit, suspicious prefix).
 */
export type GenerateRefusal = "country_not_allowed" | "prefix" | "client" | "suspicious";

type Labels = { project: string; environment: string; channel: OtpChannelName };

export interface OtpMetrics {
  generated(labels: Labels): void;
  verified(labels: Labels): void;
  refused(labels: Labels & { reason: GenerateRefusal }): void;
}

/**
 * `bayad_otp_codes_generated_total` and `bayad_otp_codes_verified_total` {project, environment,
 * channel}: their rates' quotient is the verified ratio (docs/api/otp.md gives the PromQL), which
 * falls when codes go unverified, as pumped ones do. `bayad_otp_generate_refusals_total` {project,
 * environment, channel, reason} counts what the rules refused before any send. Nothing is kept
 * without a registry.
 */
export function registerOtpMetrics(registry: Registry | undefined): OtpMetrics {
  if (!registry) return { generated: () => undefined, verified: () => undefined, refused: () => undefined };
  const counter = (name: string, help: string, labelNames: string[]) =>
    metricOnce(registry, name, () => new Counter({ name, help, labelNames, registers: [registry] }));
  const labels = ["project", "environment", "channel"];
  const generated = counter("bayad_otp_codes_generated_total", "OTP codes sent: the provider took the message (or may have, its answer lost), once per code and channel, by project, environment and channel.", labels);
  const verified = counter("bayad_otp_codes_verified_total", "OTP codes verified (the correct code, once), by project, environment and channel.", labels);
  const refused = counter(
    "bayad_otp_generate_refusals_total",
    "OTP generates (or entries of a channel list) refused before any send, by project, environment, channel and reason (country_not_allowed, prefix, client, suspicious).",
    [...labels, "reason"],
  );
  return {
    generated: (values) => generated.inc(values),
    verified: (values) => verified.inc(values),
    refused: (values) => refused.inc(values),
  };
}
