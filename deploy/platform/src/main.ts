import { ConfigError } from "@bayad/kit";
import { startPlatform } from "./platform.js";

/** `npm start`: the whole platform in one process, then the three things a developer needs. */
async function main(): Promise<void> {
  const platform = await startPlatform();
  const lines = [
    "Bayad is running (all services in one process, embedded store: data lasts until it stops).",
    `  Gateway URL:   ${platform.gatewayUrl}`,
    `  API docs:      ${platform.gatewayUrl}/docs`,
    `  Admin key:     ${platform.adminApiKey}${platform.adminApiKeyGenerated ? "   (generated; set ADMIN_API_KEY to choose one)" : ""}`,
    `  Test API key:  ${platform.testApiKey}   (project ${platform.projectId})`,
    "",
    `  Try: curl -H "Authorization: Bearer ${platform.testApiKey}" ${platform.gatewayUrl}/api/v1/payments/capabilities`,
    `  OTP codes are kept in the development outbox, not sent: GET ${platform.gatewayUrl}/admin/v1/otp/messages?recipient=… (admin key)`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: stopping…\n`);
    platform.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`error while stopping: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
  } else {
    process.stderr.write(`Bayad could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
