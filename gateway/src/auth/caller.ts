import type { Environment } from "@bayad/kit";

/** Every scope the platform knows. */
export const allScopes = [
  "payments:read",
  "payments:write",
  "payments:refunds:read",
  "payments:refunds:write",
  "otp:generate",
  "otp:verify",
  "otp:read",
  "webhooks:read",
  "webhooks:write",
] as const;

export type Scope = (typeof allScopes)[number];

/** allScopes as a set, for checking a scope someone asked for or presented. */
export const knownScopes: ReadonlySet<string> = new Set<string>(allScopes);

/** What a project API key may do: all of its own project's payments and webhooks, no OTP. */
export const apiKeyScopes: readonly Scope[] = [
  "payments:read",
  "payments:write",
  "payments:refunds:read",
  "payments:refunds:write",
  "webhooks:read",
  "webhooks:write",
];

/** Who is calling, as authentication established it. */
export interface Caller {
  /** `operator`: the admin key or a dashboard session acting for a project (auth/operator.ts). */
  kind: "api_key" | "service_token" | "operator";
  projectId: string;
  environment: Environment;
  scopes: readonly string[];
  /** The API key's id, the token's `sub`, or the operator's session (`dashboard:<digest>`) or `admin_key`. */
  subject: string;
}
