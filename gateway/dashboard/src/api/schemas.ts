import type { components } from "../gen/openapi";

/**
 * The resources as the gateway answers them, typed from gateway/openapi/openapi.yaml itself
 * (openapi-typescript, the `generate` task, as @bayad/sdk does), so a change to the contract
 * shows here as a type error rather than a silently wrong page.
 */
type Schemas = components["schemas"];

export type Money = Schemas["Money"];
export type Refund = Schemas["Refund"];
export type PaymentIntentMethod = Schemas["PaymentIntentMethod"];
/**
 * What a record gained for reports (issue 45: method, customer, fee and net, metadata). Declared here until gateway/openapi/openapi.yaml carries them; the intersection then
 * changes nothing and can go.
 */
interface RecordReportFields {
  /** Bayad's name of the method that paid (`card`, `gcash`, …); null when unknown. */
  paymentMethod?: string | null;
  customerId?: string | null;
  /** Decimal centavos text; null when the provider did not report the fee. */
  feeMinor?: string | null;
  netMinor?: string | null;
  /** {} when none. */
  metadata?: Record<string, string>;
}
export type PaymentRecord = Schemas["PaymentRecord"] & RecordReportFields;
export type PaymentRecordPage = Omit<Schemas["PaymentRecordPage"], "records"> & { records: PaymentRecord[] };
export type PaymentLink = Schemas["PaymentLink"];
export type Plan = Schemas["Plan"];
export type Subscription = Schemas["Subscription"];
export type Invoice = Schemas["Invoice"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type Project = Schemas["Project"];
export type ProjectPage = Schemas["ProjectPage"];
export type ApiKey = Schemas["ApiKey"];
export type ApiKeySummary = Schemas["ApiKeySummary"];
export type ProviderAccount = Schemas["ProviderAccount"];
export type ProviderRouting = Schemas["ProviderRouting"];
export type ProviderRoute = Schemas["ProviderRoute"];
/** A method a route may name (`checkout`, `qrph`, the redirect intent methods). */
export type RouteMethod = NonNullable<ProviderRoute["methods"]>[number];
export type OtpDevMessage = Schemas["OtpDevMessage"];
export type DevMessage = Schemas["DevMessage"];
export type BillingSettings = Schemas["BillingSettings"];
export type BillingSettingsPutRequest = Schemas["BillingSettingsPutRequest"];
export type DunningSchedule = Schemas["DunningSchedule"];
export type MessageLocale = Schemas["MessageLocale"];
