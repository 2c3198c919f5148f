/**
 * deploy/env/*.example as `docker run --env-file` reads them: KEY=value lines, `#` lines skipped,
 * the value taken verbatim (no quotes removed, no interpolation). Docker's own rule is this one
 * line split; dotenv-style libraries strip quotes and expand variables, which Docker does not.
 */
export function parseEnvFile(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const at = trimmed.indexOf("=");
    if (at <= 0) throw new Error(`not KEY=value: ${line}`);
    result[trimmed.slice(0, at)] = trimmed.slice(at + 1);
  }
  return result;
}
