import type { Env } from "@bayad/kit";
import { readSandboxOptions, type SandboxProviderOptions } from "@bayad/provider";

export interface LinksConfig {
  /** The test-mode provider, which hosts the links' payment pages. */
  sandbox: SandboxProviderOptions;
}

/** The links service's environment; a bad value throws a one-line ConfigError. */
export function readLinksConfig(env: Env): LinksConfig {
  return { sandbox: readSandboxOptions(env) };
}
