import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

/**
 * JSON logs. Credentials and passcodes are redacted by path wherever they appear, so a careless
 * log line cannot leak them. Written to standard output, or to `destination` (tests read what
 * was logged).
 */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? "info", destination?: DestinationStream): Logger {
  const options = {
    name,
    level,
    base: { service: name },
    redact: {
      paths: [
        "authorization",
        "*.authorization",
        "headers.authorization",
        "req.headers.authorization",
        "apiKey",
        "*.apiKey",
        "accessToken",
        "*.accessToken",
        "code",
        "*.code",
        "secret",
        "*.secret",
        // Provider accounts: a PayMongo secret key and its webhook secret.
        "secretKey",
        "*.secretKey",
        "webhookSecret",
        "*.webhookSecret",
      ],
      censor: "[redacted]",
    },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
