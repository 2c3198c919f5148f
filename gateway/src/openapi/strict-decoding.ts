/**
 * Percent-decoding of path parameters and query strings that refuses what it cannot decode
 * exactly. @koa/router keeps a segment it cannot decode as it came (`%zz` stays `%zz`, which
 * reads like the decoded `%25zz`), and Node's querystring turns invalid UTF-8 (`%ff`, an encoded
 * lone surrogate `%ED%A0%80`) into U+FFFD: both would hand a service a value the client never
 * sent. Here such a value is a "field: problem" detail instead, so the request gets a 400.
 */

const notUtf8 = "is not valid percent-encoded UTF-8";
// A request target is ASCII (RFC 9112); Node reads any other byte as Latin-1, which would turn
// raw UTF-8 into mojibake, so such a value is refused rather than guessed at.
const unencoded = "holds characters that are not percent-encoded";
const outsideAscii = /[^\x21-\x7e]/;

/**
 * The route's parameters from the raw segments the router captured, in the order of `names`.
 * A segment without `%` is its own value (the common case: no decoding at all).
 */
export function decodePathParameters(names: readonly string[], captures: readonly string[], details: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const raw = captures[i];
    if (raw === undefined) continue;
    const value = decodeComponent(raw, false, !outsideAscii.test(raw));
    if (value === undefined) details.push(`${name}: ${problemOf(raw)}`);
    else params[name] = value;
  }
  return params;
}

/**
 * A query string as Koa reads it (`+` is a space, a repeated name gives an array, a name without
 * `=` has the value ""), but decoded strictly.
 */
export function parseQueryString(querystring: string, details: string[]): Record<string, string | string[]> {
  const query = Object.create(null) as Record<string, string | string[]>;
  if (querystring === "") return query;
  const ascii = !outsideAscii.test(querystring);
  for (const pair of querystring.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const rawValue = equals === -1 ? "" : pair.slice(equals + 1);
    const name = decodeComponent(rawName, true, ascii);
    if (name === undefined) {
      details.push(`query: a parameter name ${problemOf(rawName)}`);
      continue;
    }
    const value = decodeComponent(rawValue, true, ascii);
    if (value === undefined) {
      details.push(`${name}: ${problemOf(rawValue)}`);
      continue;
    }
    const previous = query[name];
    query[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return query;
}

/**
 * The decoded text, or undefined when `raw` is not printable ASCII (`ascii` says whether the
 * text it came from was) carrying valid percent-encoded UTF-8.
 */
function decodeComponent(raw: string, plusIsSpace: boolean, ascii: boolean): string | undefined {
  if (!ascii && outsideAscii.test(raw)) return undefined;
  const text = plusIsSpace && raw.includes("+") ? raw.replaceAll("+", " ") : raw;
  if (!text.includes("%")) return text;
  try {
    // decodeURIComponent refuses a malformed escape and any invalid UTF-8, encoded surrogates included.
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function problemOf(raw: string): string {
  return outsideAscii.test(raw) ? unencoded : notUtf8;
}
