import { ConfigError } from "@bayad/kit";

/**
 * What every launcher shares (`npm start`, `npm run start:services`, each component's process):
 * the banner a developer reads, the one line a failed start prints, and the graceful stop.
 */

export interface Banner {
  /** The first line: how the platform runs. */
  title: string;
  gatewayUrl: string;
  adminApiKey: string;
  adminApiKeyGenerated: boolean;
  projectId: string;
  testApiKey: string;
  /** The gateway's internal metrics listener, when there is one to name (one-process mode). */
  metricsUrl?: string;
  /** DATA_DIR, when the launcher keeps its data (or, with `mongodb`, only its generated secrets) there. */
  dataDir?: string;
  /** The stores are in MongoDB (MONGODB_URI, services mode), not in DATA_DIR. */
  mongodb?: boolean;
}

/**
 * `npm start`'s development defaults over the environment: a setting the environment leaves
 * unset (or blank) takes the value here. WEBHOOKS_ALLOW_PRIVATE_TARGETS lets test-mode webhook
 * endpoints point at a receiver on the developer's own machine (localhost, the LAN); live ones
 * never reach private addresses whatever it says.
 */
export function withDevelopmentDefaults(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const defaults = { WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" };
  const unset = Object.entries(defaults).filter(([name]) => (env[name] ?? "").trim() === "");
  return { ...env, ...Object.fromEntries(unset) };
}

/** Where the data lives and how to start afresh. */
function dataLines({ dataDir, mongodb }: Banner): string[] {
  if (dataDir === undefined) return [];
  return mongodb
    ? [`  Data:          MongoDB (MONGODB_URI); the generated secrets in ${dataDir}/secrets.json (DATA_DIR)`]
    : [`  Data:          ${dataDir}   (DATA_DIR; to start afresh, stop Bayad and delete it)`];
}

/** The channels whose codes the development outbox keeps instead of sending (their sender left at `dev`). */
function outboxChannels(env: NodeJS.ProcessEnv): string[] {
  const senders: Array<[string, string | undefined]> = [["e-mail", env.OTP_EMAIL_SENDER], ["SMS", env.OTP_SMS_SENDER]];
  return senders.filter(([, sender]) => (sender ?? "dev") === "dev").map(([channel]) => channel);
}

/** The banner's lines: the gateway URL, the admin key and a ready test API key, with how to try them. */
export function bannerLines(banner: Banner, env: NodeJS.ProcessEnv): string[] {
  const { gatewayUrl, testApiKey } = banner;
  const channels = outboxChannels(env);
  const kept = channels.length === 2 ? "OTP codes are" : `OTP codes by ${channels[0]} are`;
  return [
    banner.title,
    `  Gateway URL:   ${gatewayUrl}`,
    `  API docs:      ${gatewayUrl}/docs`,
    `  Dashboard:     ${gatewayUrl}/dashboard/   (sign in with the admin key)`,
    ...(banner.metricsUrl ? [`  Metrics:       ${banner.metricsUrl}   (internal listener, METRICS_PORT; not on the gateway's port)`] : []),
    ...dataLines(banner),
    `  Admin key:     ${banner.adminApiKey}${banner.adminApiKeyGenerated ? `   (${banner.dataDir ? "generated once, kept in DATA_DIR" : "generated"}; set ADMIN_API_KEY to choose one)` : ""}`,
    `  Test API key:  ${testApiKey}   (project ${banner.projectId})`,
    "",
    `  Try: curl -H "Authorization: Bearer ${testApiKey}" ${gatewayUrl}/api/v1/payments/capabilities`,
    ...(channels.length > 0
      ? [`  ${kept} kept in the development outbox, not sent: GET ${gatewayUrl}/admin/v1/otp/messages?recipient=… (admin key)`]
      : []),
  ];
}

/** Prints the banner (see bannerLines) for the process's own environment. */
export function printBanner(banner: Banner): void {
  process.stdout.write(`${bannerLines(banner, process.env).join("\n")}\n`);
}

/**
 * A failed start, then exit 1: a bad setting is one line naming the variable; anything else
 * goes to `report`, or is one line too.
 */
export function exitOnStartError(error: unknown, report?: (error: unknown) => void): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
  } else if (report) {
    report(error);
  } else {
    process.stderr.write(`Bayad could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
}

export interface StopOnSignals {
  /** Stops gracefully; the process exits 0 once it resolves. */
  stop(signal: NodeJS.Signals): Promise<void>;
  /** Reports a failure to stop (by default one line on stderr); the process then exits 1. */
  onError?: (error: unknown) => void;
  /** Exits 1 if stopping takes longer than `ms`, after `onTimeout`. */
  grace?: { ms: number; onTimeout(): void };
}

/** On the first SIGTERM or SIGINT, stops once (later signals change nothing) and exits. */
export function stopOnSignals(options: StopOnSignals): void {
  const onError = options.onError ?? ((error: unknown) => process.stderr.write(`error while stopping: ${String(error)}\n`));
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const deadline = options.grace
      ? setTimeout(() => {
          options.grace!.onTimeout();
          process.exit(1);
        }, options.grace.ms).unref()
      : undefined;
    Promise.resolve(signal).then((received) => options.stop(received)).then(
      () => {
        clearTimeout(deadline);
        process.exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        onError(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
