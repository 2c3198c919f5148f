#!/usr/bin/env node
import { readFile } from "node:fs/promises";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError, defaultUrl, describe, optional, reportFailure, required, type CliIo, type Values } from "./cli-support.js";
import { runDataDirCommand } from "./data-dir-commands.js";
import { runEventsList } from "./events-list.js";
import { runListen } from "./listen.js";
import { runRecordsExport } from "./records-export.js";

/**
 * `bayad` — the operator CLI. It talks to the gateway's admin HTTP API rather than to the store,
 * so it works against any deployment (one process, services mode, Kubernetes) and goes through
 * the same admin-key check and validation as any other admin client. `backup` and `restore` are
 * the exception: they work on the files of an embedded-store DATA_DIR, on the same machine; and
 * `listen` and `events list` are a developer's, made with a project API key on the public API.
 */

export type { CliIo } from "./cli-support.js";

const processIo: CliIo = {
  byteOut: process.stdout,
  out: (text) => void process.stdout.write(`${text}\n`),
  err: (text) => void process.stderr.write(`${text}\n`),
  async readStdin() {
    if (process.stdin.isTTY) throw new UsageError("give the secret key with --secret-key-file <file>, or pipe it to standard input");
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
};

const requestTimeoutMs = 30_000;

const usage = `Usage: bayad <command> [options] [--json]

Every command takes --json: its outcome is printed as JSON (one object per line for listen).

Operator commands (ADMIN_API_KEY):
  projects create --name <name>
      Create a project; prints its projectId.
  api-keys create --project <prj_…> --environment test|live
      Issue a project API key; the key is printed once and cannot be shown again.
  api-keys list --project <prj_…>
      List the project's API keys (id, prefix and last 4 characters, environment, created,
      last used to within a minute, revoked), newest first.
  api-keys revoke <key_…> --project <prj_…>
      Revoke an API key; every gateway replica refuses it within a second.
  service-tokens create --project <prj_…> --environment test|live --subject <subject>
                        --scopes <scope,scope> --ttl <seconds>
      Mint a service access token (needed for the OTP API).
  provider-accounts put <prj_…> test|live [--provider paymongo|xendit]
                        [--payment-method-types <type,type>] [--secret-key-file <file>]
                        [--callback-token-file <file>]
      Give the project its own account at the provider (default paymongo) in that mode; a
      project holds one per provider and mode. The secret key (PayMongo: sk_test_… / sk_live_…;
      Xendit: xnd_development_… / xnd_production_…) is read from <file>, or from standard input
      when the option is absent or "-", never from the command line (it would show in the
      process list). PayMongo: --payment-method-types is required; Bayad checks the key and
      registers its webhook. Xendit: --callback-token-file names a file holding the account's
      callback verification token (from Xendit's dashboard); the answer shows the callback URL
      to set in Xendit's dashboard. Putting again replaces the key.
  provider-accounts list <prj_…>
      List the project's provider accounts, both modes (never their secrets).
  provider-accounts get <prj_…> test|live [--provider paymongo|xendit]
      Show the project's provider account in that mode (never its secrets); --provider is
      needed when the mode holds two.
  provider-accounts delete <prj_…> test|live [--provider paymongo|xendit]
      Remove it; once the mode holds none, test goes back to the sandbox, live to not configured.
  provider-routing get <prj_…> test|live
      Show how the project's new payments are routed between its provider accounts (the
      default when none is stored: the oldest account first, the others by failover only).
  provider-routing put <prj_…> test|live [--routes-file <file>]
      Replace the routing with the JSON in <file> (standard input when absent or "-"):
      {"routes": [{"providerAccountId": "pa_…", "methods": [...], "weight": 700}, …],
       "version": <the version read>}, as "provider-routing get --json" prints it.
  otp-settings get <prj_…> test|live
      Show how the project's one-time passcodes are sent in that mode: the countries SMS may
      go to (default PH only), the app's name, the templates per locale.
  otp-settings put <prj_…> test|live [--settings-file <file>]
      Replace them with the JSON in <file> (standard input when absent or "-"):
      {"smsCountries": ["PH", "SG"], "appName": "Kape", "templates": {"fil": "…{code}…"}},
      as "otp-settings get --json" prints it (projectId and environment ignored).
  records rebuild-totals --project <prj_…> [--environment test|live]
      Recompute the project's payment totals (what reports/summary answers) from its payment
      records, in one mode or both; prints how many records were read and totals written.
      Safe to repeat.
  signing-keys rotate
      Replace the development token issuer's signing key now; tokens it signed keep working
      until they expire.
  sessions revoke --all
      End every dashboard session, on every gateway replica: each operator signs in again.
  secrets reseal
      Seal every stored secret again under the newest key of its ring (GATEWAY_SECRETS,
      SECRETS_KEYS, OTP_HASH_SECRETS) and print, per component, how many values were resealed,
      already current, or unreadable; once all say 0 resealed and 0 unreadable, the older keys
      may leave the rings. Safe to repeat and while serving.
  backup --to <file> [--data-dir <dir>]
         (--passphrase-file <file> | --recipient <age1…> | --unencrypted)
      Copy the data of the platform using DATA_DIR (running or stopped) into one file: each
      store as it stood at one moment, and secrets.json, which holds the platform's secrets
      and admin key. The file (mode 0600) is encrypted with age, to the passphrase in <file>
      ("-": standard input) or to one or more recipients' public keys; --unencrypted writes
      it in clear. Needs no admin key.
  restore --from <file> --to <dir> [--passphrase-file <file> | --identity-file <file>]
      Unpack a backup into <dir>, which must not exist or be empty; then start with
      DATA_DIR=<dir>. An encrypted backup needs its passphrase, or an age identity file
      (AGE-SECRET-KEY-1…) of one of its recipients.

Developer commands (a project API key: --api-key or BAYAD_API_KEY; --gateway or BAYAD_URL):
  listen --forward-to <url> [--events <type,type>]
      Forward the project's test events to a local app: registers a temporary test-mode
      webhook endpoint (test keys only), prints its signing secret, passes each delivery on
      to <url> with the same body and webhook-* headers, prints one line per delivery (time,
      type, event id, the app's status) and answers the platform with the app's status, so
      failures are retried. Ctrl-C removes the endpoint. --events defaults to every type.
  events list [--type <type>] [--limit <n>]
      The project's events, newest first (20 unless --limit says otherwise).
  records export [--output <file>] [--type <type>] [--status <status>] [--reference-id <id>]
                 [--related-resource-id <id>] [--created-after <date-time>]
                 [--created-before <date-time>] [--customer <cus_…>] [--metadata <key=value>]
                 [--amount-min <centavos>] [--amount-max <centavos>]
                 [--payment-method <method>] [--provider-account <pa_…>]
      Every matching payment record of the key's project and mode as CSV (columns in
      docs/api/records.md), streamed to standard output or to a new <file>. A transfer that
      breaks off exits 1 (and leaves no <file>). A negative bound takes "=": --amount-min=-1500.

  help
      Show this text.

Environment:
  BAYAD_URL        the gateway's base URL (default ${defaultUrl})
  ADMIN_API_KEY    the gateway's admin key (required by the operator commands, except backup
                   and restore)
  BAYAD_API_KEY    a project API key, for listen and events list (--api-key overrides it)
  DATA_DIR         backup's default --data-dir (default ./.bayad)

Exit status: 0 on success, 1 when the request fails, 2 on a usage error.`;

interface AdminRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Relative to the gateway base URL, without a leading slash. */
  path: string;
  /** Absent for operations that take no body. */
  body?: Record<string, unknown>;
}

interface Command {
  options: NonNullable<ParseArgsConfig["options"]>;
  /** The names of the positional arguments the command takes, in order (all required). */
  positionals?: readonly string[];
  toRequest(values: Values, positionals: readonly string[], io: CliIo): AdminRequest | Promise<AdminRequest>;
  /** A few lines for people; without it (or with --json) the answer's data is printed as JSON. */
  summarize?: (data: unknown) => string;
}

const environmentOption = { type: "string" } as const;

const commands: Record<string, Command> = {
  "projects create": {
    options: { name: { type: "string" } },
    toRequest: (values) => ({ method: "POST", path: "admin/v1/projects", body: { name: required(values, "name") } }),
  },
  "api-keys create": {
    options: { project: { type: "string" }, environment: environmentOption },
    toRequest: (values) => ({
      method: "POST",
      path: `${projectPath(values)}/api-keys`,
      body: { environment: environmentOf(values) },
    }),
  },
  "records rebuild-totals": {
    options: { project: { type: "string" }, environment: environmentOption },
    toRequest: (values) => {
      const environment = optional(values, "environment");
      if (environment !== undefined && environment !== "test" && environment !== "live") {
        throw new UsageError(`--environment must be test or live, got "${environment}"`);
      }
      return { method: "POST", path: `${projectPath(values)}/payment-totals/rebuild`, body: environment ? { environment } : {} };
    },
    summarize: (data) => {
      const { recordsRead, totalsWritten } = data as { recordsRead: number; totalsWritten: number };
      return `Read ${recordsRead} payment records; wrote ${totalsWritten} totals.`;
    },
  },
  "api-keys list": {
    options: { project: { type: "string" } },
    toRequest: (values) => ({ method: "GET", path: `${projectPath(values)}/api-keys` }),
  },
  "api-keys revoke": {
    options: { project: { type: "string" } },
    positionals: ["key id"],
    toRequest: (values, [keyId]) => ({
      method: "POST",
      path: `${projectPath(values)}/api-keys/${encodeURIComponent(keyId)}/revoke`,
    }),
  },
  "provider-accounts put": {
    options: {
      provider: { type: "string" },
      "secret-key-file": { type: "string" },
      "payment-method-types": { type: "string" },
      "callback-token-file": { type: "string" },
    },
    positionals: ["project id", "environment"],
    toRequest: async (values, [projectId, environment], io) => {
      const provider = providerOf(values) ?? "paymongo";
      const listed = provider === "paymongo" ? required(values, "payment-method-types") : values["payment-method-types"];
      const paymentMethodTypes = (typeof listed === "string" ? listed : "")
        .split(",")
        .map((type) => type.trim())
        .filter((type) => type.length > 0);
      const path = providerAccountPath(projectId, environment);
      if (provider === "paymongo") {
        if (values["callback-token-file"] !== undefined) throw new UsageError("--callback-token-file is for Xendit accounts only");
        return { method: "PUT", path, body: { provider, secretKey: await readSecretKey(values, io), paymentMethodTypes } };
      }
      const callbackToken = await readCallbackToken(values);
      return { method: "PUT", path, body: { provider, secretKey: await readSecretKey(values, io), paymentMethodTypes, callbackToken } };
    },
    summarize: summarizeProviderAccount,
  },
  "provider-accounts list": {
    options: {},
    positionals: ["project id"],
    toRequest: (_values, [projectId]) => ({ method: "GET", path: `admin/v1/projects/${encodeURIComponent(projectId)}/provider-accounts` }),
    summarize: (data) => {
      const accounts = data as unknown[];
      return accounts.length === 0 ? "No provider accounts." : accounts.map(summarizeProviderAccount).join("\n");
    },
  },
  "provider-accounts get": {
    options: { provider: { type: "string" } },
    positionals: ["project id", "environment"],
    toRequest: (values, [projectId, environment]) => ({ method: "GET", path: providerAccountPath(projectId, environment, providerOf(values)) }),
    summarize: summarizeProviderAccount,
  },
  "provider-accounts delete": {
    options: { provider: { type: "string" } },
    positionals: ["project id", "environment"],
    toRequest: (values, [projectId, environment]) => ({ method: "DELETE", path: providerAccountPath(projectId, environment, providerOf(values)) }),
    summarize: (data) => `Removed ${summarizeProviderAccount(data)}`,
  },
  "provider-routing get": {
    options: {},
    positionals: ["project id", "environment"],
    toRequest: (_values, [projectId, environment]) => ({ method: "GET", path: providerRoutingPath(projectId, environment) }),
    summarize: summarizeProviderRouting,
  },
  "provider-routing put": {
    options: { "routes-file": { type: "string" } },
    positionals: ["project id", "environment"],
    toRequest: async (values, [projectId, environment], io) => {
      const { routes, version } = await readRouting(values, io);
      return { method: "PUT", path: providerRoutingPath(projectId, environment), body: { routes, version } };
    },
    summarize: summarizeProviderRouting,
  },
  "otp-settings get": {
    options: {},
    positionals: ["project id", "environment"],
    toRequest: (_values, [projectId, environment]) => ({ method: "GET", path: otpSettingsPath(projectId, environment) }),
  },
  "otp-settings put": {
    options: { "settings-file": { type: "string" } },
    positionals: ["project id", "environment"],
    toRequest: async (values, [projectId, environment], io) => {
      const path = otpSettingsPath(projectId, environment);
      return { method: "PUT", path, body: await readOtpSettings(values, io) };
    },
  },
  "signing-keys rotate": {
    options: {},
    toRequest: () => ({ method: "POST", path: "admin/v1/signing-keys/rotate" }),
  },
  "sessions revoke": {
    options: { all: { type: "boolean" } },
    toRequest: (values) => {
      // Explicit, so that ending one session can be added later without changing what this does.
      if (values.all !== true) throw new UsageError("sessions revoke needs --all: it ends every dashboard session");
      return { method: "POST", path: "admin/v1/dashboard-sessions/revoke" };
    },
    summarize: (data) => {
      const { revoked } = data as { revoked: number };
      return `Ended ${revoked} dashboard session${revoked === 1 ? "" : "s"}.`;
    },
  },
  "secrets reseal": {
    options: {},
    toRequest: () => ({ method: "POST", path: "admin/v1/secrets/reseal" }),
    summarize: (data) =>
      (data as { components: Array<{ component: string; resealed: number; current: number; unreadable: number }> }).components
        .map(({ component, resealed, current, unreadable }) => `${component.padEnd(9)} ${resealed} resealed, ${current} already current, ${unreadable} unreadable`)
        .join("\n"),
  },
  "service-tokens create": {
    options: {
      project: { type: "string" },
      environment: environmentOption,
      subject: { type: "string" },
      scopes: { type: "string" },
      ttl: { type: "string" },
    },
    toRequest: (values) => ({
      method: "POST",
      path: "admin/v1/service-tokens",
      body: {
        projectId: required(values, "project"),
        environment: environmentOf(values),
        subject: required(values, "subject"),
        scopes: required(values, "scopes")
          .split(",")
          .map((scope) => scope.trim())
          .filter((scope) => scope.length > 0),
        ttlSeconds: ttlOf(values),
      },
    }),
  },
};

function projectPath(values: Values): string {
  return `admin/v1/projects/${encodeURIComponent(required(values, "project"))}`;
}

function environmentOf(values: Values): string {
  const environment = required(values, "environment");
  if (environment !== "test" && environment !== "live") {
    throw new UsageError(`--environment must be test or live, got "${environment}"`);
  }
  return environment;
}

function providerAccountPath(projectId: string, environment: string, provider?: string): string {
  if (environment !== "test" && environment !== "live") throw new UsageError(`the environment must be test or live, got "${environment}"`);
  return `admin/v1/projects/${encodeURIComponent(projectId)}/provider-accounts/${environment}${provider ? `?provider=${provider}` : ""}`;
}

/** --provider, when given: paymongo or xendit. */
function providerOf(values: Values): "paymongo" | "xendit" | undefined {
  const provider = values.provider;
  if (provider === undefined) return undefined;
  if (provider !== "paymongo" && provider !== "xendit") throw new UsageError(`--provider must be paymongo or xendit, got "${String(provider)}"`);
  return provider;
}

/** A Xendit account's callback verification token, from --callback-token-file: never an argument, which `ps` shows. */
async function readCallbackToken(values: Values): Promise<string> {
  const file = values["callback-token-file"];
  if (typeof file !== "string" || file === "" || file === "-") {
    throw new UsageError("a Xendit account needs --callback-token-file <file> (the callback verification token from Xendit's dashboard)");
  }
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`--callback-token-file cannot be read: ${(error as NodeJS.ErrnoException).code ?? describe(error)}`);
  }
  const token = text.trim();
  if (token === "") throw new UsageError("the callback token is empty");
  return token;
}

function otpSettingsPath(projectId: string, environment: string): string {
  return providerAccountPath(projectId, environment).replace(/\/provider-accounts\//, "/otp-settings/");
}

/** The OTP settings to put, from --settings-file or standard input (what `get --json` prints; its projectId and environment dropped). */
async function readOtpSettings(values: Values, io: CliIo): Promise<Record<string, unknown>> {
  const file = values["settings-file"];
  let text: string;
  if (typeof file === "string" && file !== "-") {
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new UsageError(`--settings-file cannot be read: ${(error as NodeJS.ErrnoException).code ?? describe(error)}`);
    }
  } else {
    if (!io.readStdin) throw new UsageError("give the settings with --settings-file <file>");
    text = await io.readStdin();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError("the OTP settings are not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new UsageError('the OTP settings must be an object with "smsCountries"');
  const { projectId: _projectId, environment: _environment, ...settings } = parsed as Record<string, unknown>;
  return settings;
}

function providerRoutingPath(projectId: string, environment: string): string {
  return providerAccountPath(projectId, environment).replace(/\/provider-accounts\//, "/provider-routing/");
}

/** The routing to put, from --routes-file or standard input: `{routes, version}` (what `get --json` prints; other fields ignored). */
async function readRouting(values: Values, io: CliIo): Promise<{ routes: unknown; version: unknown }> {
  const file = values["routes-file"];
  let text: string;
  if (typeof file === "string" && file !== "-") {
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new UsageError(`--routes-file cannot be read: ${(error as NodeJS.ErrnoException).code ?? describe(error)}`);
    }
  } else {
    if (!io.readStdin) throw new UsageError("give the routing with --routes-file <file>");
    text = await io.readStdin();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError("the routing is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || !("routes" in parsed)) throw new UsageError('the routing needs "routes" (and "version")');
  const routing = parsed as { routes: unknown; version?: unknown };
  return { routes: routing.routes, version: routing.version ?? 0 };
}

function summarizeProviderRouting(data: unknown): string {
  const routing = data as {
    projectId: string;
    environment: string;
    default: boolean;
    version: number;
    routes: { providerAccountId: string; methods?: string[]; minAmount?: { amountMinor: number }; maxAmount?: { amountMinor: number }; weight: number }[];
  };
  const bounds = (route: (typeof routing.routes)[number]) =>
    route.minAmount || route.maxAmount ? ` ${route.minAmount?.amountMinor ?? 0}–${route.maxAmount?.amountMinor ?? "∞"} centavos` : "";
  return [
    `Routing of ${routing.projectId} (${routing.environment}) ${routing.default ? "(default)" : `version ${routing.version}`}`,
    ...routing.routes.map((route) => `  ${route.providerAccountId}  weight ${String(route.weight).padStart(4)}  ${route.methods?.join(", ") ?? "every method"}${bounds(route)}`),
  ].join("\n");
}

/** The provider's secret key, from --secret-key-file or standard input: never an argument, which `ps` shows. */
async function readSecretKey(values: Values, io: CliIo): Promise<string> {
  const file = values["secret-key-file"];
  let text: string;
  if (typeof file === "string" && file !== "-") {
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new UsageError(`--secret-key-file cannot be read: ${(error as NodeJS.ErrnoException).code ?? describe(error)}`);
    }
  } else {
    if (!io.readStdin) throw new UsageError("give the secret key with --secret-key-file <file>");
    text = await io.readStdin();
  }
  const key = text.trim();
  if (key === "") throw new UsageError("the secret key is empty");
  return key;
}

function summarizeProviderAccount(data: unknown): string {
  const account = data as {
    providerAccountId: string;
    projectId: string;
    environment: string;
    provider: string;
    secretKeyLast4: string;
    paymentMethodTypes: string[];
    webhook?: { webhookId: string; status: string; url: string };
    callback?: { url: string; tokenLast4: string };
  };
  return [
    `${account.provider} account ${account.providerAccountId} of ${account.projectId} (${account.environment})`,
    `  secret key        …${account.secretKeyLast4}`,
    `  payment methods   ${account.paymentMethodTypes.join(", ")}`,
    ...(account.webhook ? [`  webhook           ${account.webhook.webhookId} (${account.webhook.status}) ${account.webhook.url}`] : []),
    ...(account.callback
      ? [`  callback URL      ${account.callback.url}  (configure it in Xendit's dashboard)`, `  callback token    …${account.callback.tokenLast4}`]
      : []),
  ].join("\n");
}

function ttlOf(values: Values): number {
  const text = required(values, "ttl");
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw new UsageError(`--ttl must be a whole number of seconds, got "${text}"`);
  }
  return Number(text);
}

/**
 * Parses `argv` (without node and the script), sends the admin request and prints the outcome.
 * Returns the exit status instead of exiting, so tests can run it in process. `stop` ends
 * `listen` (by default SIGINT or SIGTERM does).
 */
export async function runCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  fetchImpl: typeof fetch = fetch,
  io: CliIo = processIo,
  stop?: AbortSignal,
): Promise<number> {
  const [group, action, ...rest] = argv;
  const wantsHelp = (word: string | undefined) => word === "help" || word === "--help" || word === "-h";
  if (group === undefined || wantsHelp(group) || rest.some(wantsHelp) || wantsHelp(action)) {
    io.out(usage);
    return 0;
  }

  if (group === "backup" || group === "restore") return runDataDirCommand(group, argv.slice(1), env, io);
  if (group === "listen") return runListen(argv.slice(1), env, fetchImpl, io, stop);
  if (group === "events" && action === "list") return runEventsList(rest, env, fetchImpl, io);
  if (group === "records" && action === "export") return runRecordsExport(rest, env, fetchImpl, io);

  let request: AdminRequest;
  let summarize: ((data: unknown) => string) | undefined;
  try {
    const command = commands[`${group} ${action ?? ""}`];
    if (!command) throw new UsageError(`unknown command "${[group, action].filter(Boolean).join(" ")}"`);
    const expected = command.positionals ?? [];
    const { values, positionals } = parseArgs({
      args: [...rest],
      // Every command takes --json; those without a summary print JSON either way.
      options: { ...command.options, json: { type: "boolean" } },
      strict: true,
      allowPositionals: expected.length > 0,
    });
    if (positionals.length < expected.length) throw new UsageError(`the ${expected[positionals.length]} is required`);
    if (positionals.length > expected.length) throw new UsageError(`unexpected argument "${positionals[expected.length]}"`);
    request = await command.toRequest(values, positionals, io);
    summarize = values.json === true ? undefined : command.summarize;
  } catch (error) {
    return reportFailure(error, io);
  }

  const adminKey = env.ADMIN_API_KEY?.trim();
  if (!adminKey) {
    io.err("error: ADMIN_API_KEY is not set; export the gateway's admin key and try again.");
    return 1;
  }
  const baseText = env.BAYAD_URL?.trim() || defaultUrl;
  let url: URL;
  try {
    // Relative resolution keeps a path prefix in BAYAD_URL (a gateway behind /bayad/, say).
    url = new URL(request.path, baseText.endsWith("/") ? baseText : `${baseText}/`);
  } catch {
    io.err(`error: BAYAD_URL is not a valid URL: "${baseText}"`);
    return 1;
  }

  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: request.method,
      headers: {
        authorization: `Bearer ${adminKey}`,
        accept: "application/json",
        ...(request.body ? { "content-type": "application/json" } : {}),
      },
      body: request.body ? JSON.stringify(request.body) : undefined,
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
  } catch (error) {
    io.err(`error: cannot reach ${url.origin}: ${describe(error)}`);
    return 1;
  }
  return printOutcome(response, url, io, summarize);
}

async function printOutcome(response: Response, url: URL, io: CliIo, summarize?: (data: unknown) => string): Promise<number> {
  let envelope: unknown;
  try {
    envelope = await response.json();
  } catch {
    envelope = undefined;
  }
  if (isEnvelope(envelope)) {
    if (envelope.success) {
      io.out(summarize ? summarize(envelope.data) : JSON.stringify(envelope.data, null, 2));
      return 0;
    }
    const { code, message, details } = envelope.error;
    io.err([`${code}: ${message}`, ...(details ?? []).map((detail) => `  - ${detail}`)].join("\n"));
    return 1;
  }
  // Something other than the gateway answered (a proxy's error page, a wrong BAYAD_URL).
  io.err(`error: unexpected response from ${url.origin}${url.pathname}: HTTP ${response.status}`);
  return 1;
}

type Envelope =
  | { success: true; data: unknown }
  | { success: false; error: { code: string; message: string; details?: string[] } };

function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as { success?: unknown; data?: unknown; error?: unknown };
  if (candidate.success === true) return "data" in candidate;
  if (candidate.success !== false) return false;
  const error = candidate.error as { code?: unknown; message?: unknown; details?: unknown } | undefined;
  return (
    typeof error === "object" &&
    error !== null &&
    typeof error.code === "string" &&
    typeof error.message === "string" &&
    (error.details === undefined ||
      (Array.isArray(error.details) && error.details.every((d) => typeof d === "string")))
  );
}

function isRunDirectly(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    // realpath on both sides: npm links bin scripts, so argv[1] is often a symlink.
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isRunDirectly()) {
  process.exitCode = await runCli(process.argv.slice(2), process.env);
}
