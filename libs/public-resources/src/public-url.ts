import type { PublicUrl } from "./json.js";

/** Letters, digits and `-_~/?=&` after one leading slash: nothing `new URL` would rewrite. */
const plainPath = /^\/(?!\/)[A-Za-z0-9\-_~/?=&]*$/;

/**
 * Makes a path the provider handed back (the sandbox's hosted pages) absolute against the
 * gateway's public base URL, exactly as `new URL(path, base)` resolves it. A plain path (no dot
 * segment, percent sign or other character that parsing would rewrite) is joined to the base's
 * origin directly: parsing a URL per response was a visible share of a checkout read. The base is
 * read on every call, since it is known only once the gateway listens when PUBLIC_URL is unset.
 */
export function publicUrlResolver(baseUrl: () => string): PublicUrl {
  let base: string | undefined;
  let origin = "null";
  return (pathOrUrl) => {
    const current = baseUrl();
    if (current !== base) {
      origin = new URL(current).origin;
      base = current;
    }
    if (origin !== "null" && plainPath.test(pathOrUrl)) return origin + pathOrUrl;
    return new URL(pathOrUrl, current).toString();
  };
}
