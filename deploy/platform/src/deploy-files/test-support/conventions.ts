/**
 * What the deployment files must agree with: the repository's layout, the components the
 * launcher knows and the variables each needs. Kept under test-support/ so tsc leaves it out of
 * dist/ (and out of the image).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ComponentName, ServiceName } from "../../services-mode/components.js";

export const repoRoot = fileURLToPath(new URL("../../../../../", import.meta.url));
export const readRepoFile = (path: string) => readFileSync(join(repoRoot, path), "utf8");

/** The components and services as the launcher knows them, so a new one is checked here too. */
export { componentNames as components, serviceNames as services } from "../../services-mode/components.js";
export type Component = ComponentName;

const serviceCommon = ["HOST", "PORT", "METRICS_PORT", "MONGODB_URI", "MONGODB_DATABASE", "LOG_LEVEL", "SHUTDOWN_GRACE_MS"];

/** What each component must be given in a container (the integrator's list). */
export const requiredEnv: Record<Component, string[]> = {
  gateway: [
    "HOST", "PORT", "METRICS_PORT", "ADMIN_API_KEY", "GATEWAY_SECRET", "PUBLIC_URL",
    "PAYMENTS_URL", "BILLING_URL", "LINKS_URL", "RECORDS_URL", "OTP_URL", "WEBHOOKS_URL",
    "MONGODB_URI", "DEV_TOKEN_ISSUER", "LOG_LEVEL", "SHUTDOWN_GRACE_MS",
  ],
  payments: [...serviceCommon, "NATS_URL", "SANDBOX_SECRET", "SECRETS_KEY", "PUBLIC_URL"],
  billing: [...serviceCommon, "NATS_URL", "SANDBOX_SECRET", "SECRETS_KEY", "PAYMENTS_URL"],
  links: [...serviceCommon, "NATS_URL", "SANDBOX_SECRET", "SECRETS_KEY", "PAYMENTS_URL"],
  records: [...serviceCommon, "NATS_URL", "RECORDS_CURSOR_SECRET"],
  otp: [...serviceCommon, "OTP_HASH_SECRET", "OTP_EMAIL_SENDER", "OTP_SMS_SENDER"],
  webhooks: [...serviceCommon, "NATS_URL", "SECRETS_KEY", "PUBLIC_URL"],
};

/** Secrets: their compose defaults must say development-only, their examples CHANGE-ME. */
export const secretVariables = [
  "ADMIN_API_KEY", "GATEWAY_SECRET", "GATEWAY_SECRETS", "SANDBOX_SECRET", "SECRETS_KEY", "SECRETS_KEYS",
  "RECORDS_CURSOR_SECRET", "OTP_HASH_SECRET", "OTP_HASH_SECRETS", "SMTP_PASS", "SEMAPHORE_API_KEY",
];

/** The gateway variable that addresses each service. */
export const serviceUrlVariable: Record<ServiceName, string> = {
  payments: "PAYMENTS_URL",
  billing: "BILLING_URL",
  links: "LINKS_URL",
  records: "RECORDS_URL",
  otp: "OTP_URL",
  webhooks: "WEBHOOKS_URL",
};

/** The root package.json's workspaces, globs expanded to the folders holding a package.json. */
export function workspaceFolders(): string[] {
  const { workspaces } = JSON.parse(readRepoFile("package.json")) as { workspaces: string[] };
  return workspaces.flatMap((entry) => {
    if (!entry.endsWith("/*")) return [entry];
    const parent = entry.slice(0, -2);
    return readdirSync(join(repoRoot, parent), { withFileTypes: true })
      .filter((dirent) => dirent.isDirectory() && existsSync(join(repoRoot, parent, dirent.name, "package.json")))
      .map((dirent) => `${parent}/${dirent.name}`);
  });
}
