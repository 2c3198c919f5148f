import { validationError } from "./api-error.js";
import { BodyReader } from "./body-reader.js";

/** Where an account's callbacks go and the token they carry. */
export interface CallbackSettings {
  /** Where v3 callbacks go, and invoice callbacks too unless `invoiceUrls` is given. */
  urls: string[];
  /**
   * Where invoice callbacks go, when they have URLs of their own: Xendit's dashboard sets a URL
   * per product [O apidocs/webhook-behavior]. Left out, they go to `urls`, as one receiver can tell
   * an invoice's flat body from a v3 envelope.
   */
  invoiceUrls?: string[];
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

/** Reads `{urls, invoiceUrls?, verificationToken}` from a control body, refusing what no delivery could use. */
export function readCallbackSettings(body: Record<string, unknown>): CallbackSettings {
  const read = new BodyReader(body);
  const urls = urlsAt(read, "urls");
  const invoiceUrls = read.has("invoiceUrls") ? urlsAt(read, "invoiceUrls") : undefined;
  return { urls, ...(invoiceUrls ? { invoiceUrls } : {}), verificationToken: read.string("verificationToken", { max: 1000 }) };
}

function urlsAt(read: BodyReader, field: string): string[] {
  const urls = read.raw(field);
  if (!Array.isArray(urls) || !urls.every((url) => typeof url === "string" && URL.canParse(url))) {
    throw validationError(`${field} must be an array of absolute URLs.`);
  }
  return urls as string[];
}

/** The URLs an event of `product` goes to under `settings`. */
export function callbackUrlsOf(settings: CallbackSettings, product: "v3" | "invoice"): string[] {
  return product === "invoice" ? (settings.invoiceUrls ?? settings.urls) : settings.urls;
}
