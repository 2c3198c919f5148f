import { ConfigError } from "@bayad/kit";
import { launchServicesMode } from "./services-mode/services-launcher.js";

/**
 * `npm run start:services`: the platform as separate processes (the way it is deployed), on this
 * machine, against NATS_URL and, when set, MONGODB_URI. Prints the gateway URL, the admin key
 * and a test API key, then runs until SIGINT/SIGTERM, which stops every process gracefully.
 */
async function main(): Promise<void> {
  const mode = await launchServicesMode({
    env: process.env,
    output: (name, line) => process.stdout.write(`[${name.padEnd(8)}] ${line}\n`),
  });
  const admin = (path: string, body: unknown) =>
    fetch(`${mode.gatewayUrl}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${mode.adminApiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).then((response) => response.json() as Promise<{ data: Record<string, string> }>);
  const project = await admin("/admin/v1/projects", { name: "Default project" });
  const key = await admin(`/admin/v1/projects/${project.data.projectId}/api-keys`, { environment: "test" });
  process.stdout.write(
    [
      "Bayad is running in services mode (one process per service).",
      `  Gateway URL:   ${mode.gatewayUrl}`,
      `  Admin key:     ${mode.adminApiKey}`,
      `  Test API key:  ${key.data.apiKey}   (project ${project.data.projectId})`,
      "",
    ].join("\n"),
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    mode.stop().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof ConfigError ? `Configuration error: ${error.message}\n` : `Bayad could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
