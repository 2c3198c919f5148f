import { validationError } from "./api-error.js";
import { BodyReader } from "./body-reader.js";

/** Where an account's v3 callbacks go and the token they carry. */
export interface CallbackSettings {
  urls: string[];
  /** The account's webhook verification token, sent as `x-callback-token` [O]. */
  verificationToken: string;
}

/**
 * The callback URLs and verification token per account. Xendit has no API for v3 webhook URLs
 * (the dashboard sets them [O]), so a control sets them: for one account (by its secret key), or
 * the default for every account that has none of its own.
 */
export class CallbackRegistry {
  private fallback: CallbackSettings | undefined;
  private readonly byOwner = new Map<string, CallbackSettings>();

  set(owner: string | undefined, settings: CallbackSettings): void {
    if (owner === undefined) this.fallback = settings;
    else this.byOwner.set(owner, settings);
  }

  of(owner: string): CallbackSettings | undefined {
    return this.byOwner.get(owner) ?? this.fallback;
  }
}

/** Reads `{urls, verificationToken}` from a control body, refusing what no delivery could use. */
export function readCallbackSettings(body: Record<string, unknown>): CallbackSettings {
  const read = new BodyReader(body);
  const urls = read.raw("urls");
  if (!Array.isArray(urls) || !urls.every((url) => typeof url === "string" && URL.canParse(url))) {
    throw validationError("urls must be an array of absolute URLs.");
  }
  return { urls: urls as string[], verificationToken: read.string("verificationToken", { max: 1000 }) };
}
