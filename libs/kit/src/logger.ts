import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";

export type { Logger };

/**
 * JSON logs. Credentials and passcodes are redacted by path wherever they appear, so a careless
 * log line cannot leak them. Written to standard output, or to `destination` (tests read what
 * was logged).
 *
 * Every line carries `service` once: `name`, or the `service` of a child logger that binds its
 * own (the one-process platform's `logger.child({ service: "payments" })`). Pino appends a
 * child's bindings to its parent's without replacing any, so the default is added to each line
 * by `mixin` only for loggers whose bindings lack one, rather than bound at the root.
 */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? "info", destination?: DestinationStream): Logger {
  // Loggers that bind `service` themselves, noted once when each child is made.
  const bindingService = new WeakSet<Logger>();
  const options: LoggerOptions = {
    name,
    level,
    // Pino's `pid` and `hostname` left out, as before; `name` stays.
    base: {},
    onChild: (child) => {
      if (Object.hasOwn(child.bindings(), "service")) bindingService.add(child);
    },
    mixin: (_object, _level, logger) => (bindingService.has(logger) ? {} : { service: name }),
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
