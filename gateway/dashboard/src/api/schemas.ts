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
export type PaymentRecord = Schemas["PaymentRecord"];
export type PaymentRecordPage = Schemas["PaymentRecordPage"];
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
export type OtpSettings = Schemas["OtpSettings"];
export type OtpSettingsPutRequest = Schemas["OtpSettingsPutRequest"];
