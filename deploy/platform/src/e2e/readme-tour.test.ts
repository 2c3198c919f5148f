import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bannerOf, temporaryPlatforms, type PrintedBanner } from "../test-support/platform-process.js";
import { prerequisiteMet } from "../test-support/harness.js";
import { missingShellTools, startShellSession, type CommandResult, type ShellSession } from "../test-support/shell-session.js";

/**
 * The README's tour (the ```sh block after `<!-- tour`), run as written: command after command in
 * one bash, against a platform started as `npm start` starts it, with the four values a user
 * copies from the banner. Each step's answer is checked for what the step's comment promises.
 */

const readme = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8");

/** The tour's commands: its lines without comments and blank lines, `\`-continued lines joined. */
function tourCommands(text: string): string[] {
  const at = text.indexOf("<!-- tour");
  if (at < 0) throw new Error("README.md has no <!-- tour --> marker");
  const block = /^<!-- tour[^\n]*-->\n```sh\n([\s\S]*?)\n```\n/.exec(text.slice(at));
  if (!block) throw new Error("README.md's <!-- tour --> marker is not followed by a ```sh block");
  const commands: string[] = [];
  let pending: string | undefined;
  for (const line of block[1]!.split("\n")) {
    if (pending === undefined && (line.trim() === "" || line.trimStart().startsWith("#"))) continue;
    const joined = pending === undefined ? line : `${pending}\n${line}`;
    if (line.endsWith("\\")) pending = joined;
    else {
      commands.push(joined);
      pending = undefined;
    }
  }
  if (pending !== undefined) throw new Error(`the tour ends inside a continued command:\n${pending}`);
  return commands;
}

/** The banner's values, by the names the tour gives them. */
const fromBanner = (banner: PrintedBanner): Record<string, string> => ({
  BAYAD_URL: banner.gatewayUrl,
  ADMIN_API_KEY: banner.adminApiKey,
  BAYAD_API_KEY: banner.testApiKey,
  PROJECT_ID: banner.projectId,
});

interface Step {
  /** What the step does, for a failure's message. */
  name: string;
  /** How the README's command for this step reads. */
  command: RegExp;
  /** Checks its answer; `shell` reads the variables it set. */
  check(result: CommandResult, shell: ShellSession): Promise<void> | void;
  /** A read the feed answers moments after the writes: run again until `check` passes. */
  eventually?: boolean;
}

/** The answer curl printed (a plain step) or `pick` showed (a step that keeps one field). */
const printed = (result: CommandResult): any => JSON.parse(result.stdout);
const shown = (result: CommandResult): any => JSON.parse(result.stderr);
async function variable(shell: ShellSession, name: string): Promise<string> {
  const { stdout, exitStatus } = await shell.run(`printf '%s' "$${name}"`);
  expect(exitStatus).toBe(0);
  return stdout;
}
const quiet = (result: CommandResult) => {
  expect(result).toEqual({ stdout: "", stderr: "", exitStatus: 0 });
};

const steps: Step[] = [
  ...["BAYAD_URL", "ADMIN_API_KEY", "BAYAD_API_KEY", "PROJECT_ID"].map((name) => ({
    name: `the banner's ${name}`,
    command: new RegExp(`^${name}=\\S+\\s+# `),
    check: quiet,
  })),
  {
    name: "idem, a fresh Idempotency-Key",
    command: /^idem\(\) \{ node -e /,
    async check(result, shell) {
      quiet(result);
      const [first, second] = [await shell.run("idem"), await shell.run("idem")];
      expect(first.stdout).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\n$/);
      expect(second.stdout).not.toBe(first.stdout);
    },
  },
  { name: "pick, one field of an answer", command: /^pick\(\) \{ node -e /, check: quiet },
  {
    name: "1. create a checkout",
    command: /^CHECKOUT_ID=\$\(curl .*\/api\/v1\/payments\/checkouts"[\s\S]*\| pick data\.checkoutId\)$/,
    async check(result, shell) {
      expect(result.exitStatus).toBe(0);
      expect(result.stdout).toBe("");
      const answer = shown(result);
      expect(answer).toMatchObject({ success: true, data: { status: "pending", amount: { amountMinor: 150000, currency: "PHP" } } });
      expect(answer.data.checkoutUrl).toMatch(/^http:\/\//);
      expect(await variable(shell, "CHECKOUT_ID")).toBe(answer.data.checkoutId);
    },
  },
  {
    name: "2. pay it in the sandbox",
    command: /^curl .*\/api\/v1\/payments\/test-helpers\/checkouts\/\$CHECKOUT_ID\/pay"/,
    async check(result, shell) {
      expect(result.exitStatus).toBe(0);
      expect(printed(result)).toMatchObject({ success: true, data: { checkoutId: await variable(shell, "CHECKOUT_ID"), status: "paid" } });
    },
  },
  {
    name: "3. refund part of it",
    command: /^curl .*\/api\/v1\/payments\/refunds"/,
    async check(result, shell) {
      expect(result.exitStatus).toBe(0);
      const answer = printed(result);
      expect(answer).toMatchObject({ success: true, data: { paymentId: await variable(shell, "CHECKOUT_ID"), amount: { amountMinor: 50000 } } });
      expect(answer.data.refundId).toMatch(/^ref_/);
      expect(["pending", "succeeded"]).toContain(answer.data.status);
    },
  },
  {
    name: "4. the records feed",
    command: /^curl .*\/api\/v1\/payments\/records/,
    eventually: true,
    async check(result, shell) {
      expect(result.exitStatus).toBe(0);
      const checkoutId = await variable(shell, "CHECKOUT_ID");
      const records = printed(result).data.records as Array<Record<string, unknown>>;
      expect(records).toContainEqual(expect.objectContaining({ type: "checkout", id: checkoutId, status: "paid", amountMinor: "150000" }));
      expect(records).toContainEqual(expect.objectContaining({ type: "refund", relatedResourceId: checkoutId, amountMinor: "-50000" }));
    },
  },
  {
    name: "5. a development service token for OTP",
    command: /^OTP_TOKEN=\$\(curl .*\/admin\/v1\/service-tokens"[\s\S]*otp:generate[\s\S]*otp:verify[\s\S]*otp:read[\s\S]*\| pick data\.accessToken\)$/,
    async check(result, shell) {
      expect(result.exitStatus).toBe(0);
      const answer = shown(result);
      expect(answer.success).toBe(true);
      expect(await variable(shell, "OTP_TOKEN")).toBe(answer.data.accessToken);
    },
  },
  {
    name: "6. generate a code",
    command: /^OTP_ID=\$\(curl .*\/api\/v1\/shared\/otp\/generate"[\s\S]*\| pick data\.otpId\)$/,
    async check(result, shell) {
      expect(result.exitStatus).toBe(0);
      const answer = shown(result);
      expect(answer).toMatchObject({ success: true, data: { channel: "email", target: "m***@example.ph" } });
      expect(answer.data.channels.map((entry: { channel: string; outcome: string }) => `${entry.channel} ${entry.outcome}`)).toEqual(["sms refused", "email sent"]);
      expect(await variable(shell, "OTP_ID")).toBe(answer.data.otpId);
    },
  },
  {
    name: "7. read the code from the development outbox",
    command: /^OTP_CODE=\$\(curl .*\/admin\/v1\/otp\/messages"/,
    async check(result, shell) {
      expect(result.exitStatus).toBe(0);
      const [message] = shown(result).data;
      expect(message.otpId).toBe(await variable(shell, "OTP_ID"));
      const code = await variable(shell, "OTP_CODE");
      expect(code).toMatch(/^\d{6}$/);
      expect(message.body).toContain(code);
    },
  },
  {
    name: "8. verify it",
    command: /^curl .*\/api\/v1\/shared\/otp\/verify"/,
    async check(result, shell) {
      expect(result.exitStatus).toBe(0);
      expect(printed(result)).toMatchObject({ success: true, data: { verified: true, otpId: await variable(shell, "OTP_ID") } });
    },
  },
  {
    name: "9. its status",
    command: /^curl .*\/api\/v1\/shared\/otp\/status\/\$OTP_ID"/,
    async check(result, shell) {
      expect(result.exitStatus).toBe(0);
      expect(printed(result)).toMatchObject({ success: true, data: { otpId: await variable(shell, "OTP_ID"), status: "verified" } });
    },
  },
];

describe("the README's tour", () => {
  it("is the marked ```sh block, one command per step, each as the test expects it", () => {
    const commands = tourCommands(readme);
    expect(commands.map((command, index) => steps[index]?.command.test(command) ? steps[index]!.name : command)).toEqual(steps.map((step) => step.name));
    expect(commands.join("\n")).not.toMatch(/\buuidgen\b|\bjq\b/);
  });

  if (prerequisiteMet("the README's tour", missingShellTools())) {
    const platforms = temporaryPlatforms("bayad-readme-tour-");
    let shell: ShellSession | undefined;
    afterEach(async () => {
      await shell?.close();
      shell = undefined;
    });

    it("runs as written against npm start's platform, from a checkout to a verified passcode", async () => {
      const platform = platforms.launch({ DATA_DIR: join(platforms.parent(), "data") });
      const values = fromBanner(await bannerOf(platform));
      const session = (shell = startShellSession());
      const commands = tourCommands(readme);
      expect(commands).toHaveLength(steps.length);
      for (const [index, step] of steps.entries()) {
        // The banner's lines take this platform's values, as a user pastes theirs.
        const name = /^(\w+)=/.exec(commands[index]!)?.[1];
        const command = name !== undefined && name in values ? `${name}='${values[name]}'` : commands[index]!;
        let result: CommandResult | undefined;
        try {
          const deadline = Date.now() + (step.eventually ? 10_000 : 0);
          for (;;) {
            result = await session.run(command);
            try {
              await step.check(result, session);
              break;
            } catch (error) {
              if (Date.now() >= deadline) throw error;
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
          }
        } catch (error) {
          const answer = result ? `\nstdout: ${result.stdout}\nstderr: ${result.stderr}\nexit status: ${result.exitStatus}` : "";
          throw new Error(`README tour, step "${step.name}":\n${command}\n${error instanceof Error ? error.message : String(error)}${answer}`);
        }
      }
    }, 120_000);
  }
});
