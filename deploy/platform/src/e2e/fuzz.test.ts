import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResponseValidator, listOperations, loadOpenApiDocument, type OperationSpec } from "@bayad/gateway";
import { startTestPlatform, type TestPlatform } from "../test-support/harness.js";
import { rawRequest } from "../test-support/raw-request.js";
import { changedByRefusedRequests, snapshotStores } from "../test-support/store-snapshot.js";

/*
 * A property-based test over every operation of the OpenAPI document: each request is broken in
 * at least one way the gateway must refuse (its body, its credential, its Idempotency-Key, a path
 * parameter or its query string), and may carry more junk besides. Every answer must be a 4xx
 * error envelope that matches the document, and the stores must hold exactly what they held
 * before. FUZZ_RUNS and FUZZ_SEED (printed with any counterexample) replay or widen a run.
 */

const doc = loadOpenApiDocument();
const operations = listOperations(doc);
const checkResponse = createResponseValidator(doc);
const numRuns = Number(process.env.FUZZ_RUNS ?? 1000);
const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { $ref?: string; type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; examples?: unknown[] };

interface FuzzRequest {
  operationId: string;
  /** What is wrong with the request, for the counterexample. */
  defects: string[];
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** latin1 sends each character as one byte: bytes that are not UTF-8. */
  bodyEncoding?: "utf8" | "latin1";
}

function deref(schema: Schema | undefined): Schema {
  let node = schema ?? {};
  while (node.$ref) node = doc.components.schemas[node.$ref.replace("#/components/schemas/", "")] as Schema;
  return node;
}

function requestSchema(spec: OperationSpec): Schema | undefined {
  const schema = spec.operation.requestBody?.content["application/json"].schema as Schema | undefined;
  return schema && deref(schema);
}

/** A valid body to break: the schema's first example, or nothing. */
function exampleBody(spec: OperationSpec): Record<string, Json> {
  return structuredClone((requestSchema(spec)?.examples?.[0] ?? {}) as Record<string, Json>);
}

// ---------------------------------------------------------------- junk

/** Latin-1 text a header value may carry (node:http refuses the rest before sending). */
const headerText = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength });
const loneSurrogate = fc.constantFrom("\ud800", "\udbff", "\udc00", "\udfff", "a\ud800b", "\udc00\ud800", "💳\ud83d");
const withLoneSurrogate = fc.tuple(fc.string({ maxLength: 8 }), loneSurrogate, fc.string({ maxLength: 8 })).map((parts) => parts.join(""));
// Deeper nesting is sent as text (the "deep" body), beyond what JSON.stringify's recursion allows.
const nested = fc.integer({ min: 10, max: 500 }).map((depth) => {
  let value: Json = "bottom";
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { n: value };
  return value;
});
const junkValue: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(1e308, -1e308, 2 ** 53, -(2 ** 53), 2 ** 63, -0, 0.5, 5e-324, 0, -1, "", " ", "0", "null", "true"),
  withLoneSurrogate,
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.integer({ min: 250, max: 70_000 }).map((length) => "x".repeat(length)),
  nested,
);

// ---------------------------------------------------------------- what breaks a request

const credentialDefects = ["missing", "scheme-only", "basic", "lowercase", "unknown-api-key", "unknown-live-key", "not-a-jwt", "unsigned-jwt", "huge", "junk", "wrong-kind"] as const;
type CredentialDefect = (typeof credentialDefects)[number];

/** A path segment no parameter takes: dot segments, separators, malformed or non-UTF-8 escapes, controls. */
const refusedSegment = fc.oneof(
  fc.constantFrom(".", "..", "%2e", "%2E%2e", ".%2E", "%2e."),
  fc
    .tuple(
      fc.string({ maxLength: 6 }).map(encodeURIComponent),
      fc.oneof(
        fc.constantFrom("%2F", "%2f", "%5C", "%zz", "%", "%4", "%g0", "%ff", "%FE", "%c0%af", "%ed%a0%80", "%ED%BF%BF", "%f8%88%80%80%80", "%c3", "%e2%82", "%c3%28"),
        fc.integer({ min: 0, max: 0x9f }).filter((c) => c < 0x20 || c >= 0x7f).map((c) => encodeURIComponent(String.fromCharCode(c))),
      ),
      // After "~", which is no hex digit: a defect like "%4" must not become "%41", an "A".
      fc.string({ maxLength: 6 }).map((text) => `~${encodeURIComponent(text)}`),
    )
    .map((parts) => parts.join("")),
);

/** A query string with a defect: an unknown name, or an escape that is not UTF-8. */
const refusedQuery = fc.oneof(
  fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })).map(([name, value]) => `%C2%A7fuzz${encodeURIComponent(name)}=${encodeURIComponent(value)}`),
  fc.tuple(fc.constantFrom("limit", "cursor", "status", "type", "createdAfter", "recipient", "x"), fc.constantFrom("%zz", "%ff", "%ed%a0%80", "a%", "%c3"))
    .map(([name, value]) => `${name}=${value}`),
  fc.constantFrom("%ff=1", "%zz", "a%c3=1"),
);

/** A query string that may be fine: junk values for the operation's own parameters. */
function noisyQuery(spec: OperationSpec): fc.Arbitrary<string> {
  const names = (spec.operation.parameters ?? [])
    .map((p) => ("$ref" in p ? undefined : p))
    .filter((p) => p?.in === "query")
    .map((p) => p!.name);
  if (names.length === 0) return fc.constant("");
  return fc
    .array(fc.tuple(fc.constantFrom(...names), fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("0", "-1", "201", "1e3", "9".repeat(30), "2026-13-45T99:99:99Z", "checkout"))), { maxLength: 3 })
    .map((pairs) => pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&"));
}

type BodyDefect =
  | { kind: "not-json"; text: string }
  | { kind: "content-type"; contentType: string | undefined }
  | { kind: "not-an-object"; value: Json }
  | { kind: "huge-literal"; literal: string }
  | { kind: "deep"; depth: number; inField: boolean }
  | { kind: "not-utf8"; bytes: readonly number[] }
  | { kind: "schema"; breakWith: "unknown-field" | "missing-field" | "wrong-type" | "lone-surrogate"; field: number; value: Json; noise: Array<[number, Json]> };

const bodyDefect: fc.Arbitrary<BodyDefect> = fc.oneof(
  // Ends in a comma, which no JSON text does.
  fc.string({ maxLength: 60 }).map((text) => ({ kind: "not-json" as const, text: `${text},` })),
  fc.constantFrom(undefined, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/jsonx", "text/json", "*/*", "junk")
    .map((contentType) => ({ kind: "content-type" as const, contentType })),
  fc.oneof(fc.jsonValue({ maxDepth: 2 }).filter((v) => typeof v !== "object" || v === null || Array.isArray(v)) as fc.Arbitrary<Json>, withLoneSurrogate, nested.map((v) => [v]))
    .map((value) => ({ kind: "not-an-object" as const, value })),
  // Bytes that no UTF-8 text holds (a lone continuation byte, an overlong or surrogate form, 0xf8 and up).
  fc.record({
    kind: fc.constant("not-utf8" as const),
    bytes: fc.oneof(fc.constantFrom([0xff], [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc3]), fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 6 }).map((bytes) => [0xff, ...bytes])),
  }),
  fc.record({ kind: fc.constant("deep" as const), depth: fc.integer({ min: 1_000, max: 30_000 }), inField: fc.boolean() }),
  fc.constantFrom("1e400", "-1e400", "1e-400", "100000000000000000000000000001", "-0.0e0", "0.1e999999").map((literal) => ({ kind: "huge-literal" as const, literal })),
  fc.record({
    kind: fc.constant("schema" as const),
    breakWith: fc.constantFrom("unknown-field" as const, "missing-field" as const, "wrong-type" as const, "lone-surrogate" as const),
    field: fc.nat(),
    value: junkValue,
    noise: fc.array(fc.tuple(fc.nat(), junkValue), { maxLength: 3 }),
  }),
);

// Names no schema has, the prototype's among them.
const unknownFieldNames = ["\u00a7fuzz", "__proto__", "constructor", "prototype", "toString", "", "\u0000", "a.b", "$where"];
const jsonTypeOf = (value: Json): string => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? "number" : typeof value);
const wrongTypeCandidates: Json[] = [123, -1.5, "text", "\ud800", true, null, [], {}, [1, "a"], { a: {} }];

/** Sets an own property, "__proto__" included (an assignment would set the prototype instead). */
function set(body: Record<string, Json>, field: string, value: Json): void {
  Object.defineProperty(body, field, { value, enumerable: true, writable: true, configurable: true });
}

/** `base` as JSON text with a field the schema does not know, holding `valueText` as written. */
function withUnknownField(base: Record<string, Json>, valueText: string): string {
  const rest = JSON.stringify(base).slice(1);
  return `{"\u00a7fuzz":${valueText}${rest === "}" ? "}" : `,${rest}`}`;
}

/** The body text and content type of a broken body, and what is broken about it. */
function buildBody(spec: OperationSpec, defect: BodyDefect): { text: string; contentType: string | undefined; label: string; latin1?: boolean } {
  const base = exampleBody(spec);
  const json = "application/json";
  switch (defect.kind) {
    case "not-json":
      return { text: defect.text, contentType: json, label: "body is not JSON" };
    case "content-type":
      // Never empty: an empty body is no body, whatever its type.
      return { text: JSON.stringify(base) === "{}" ? '{"a":1}' : JSON.stringify(base), contentType: defect.contentType, label: `Content-Type ${defect.contentType}` };
    case "not-an-object":
      return { text: JSON.stringify(defect.value), contentType: json, label: "body is not an object" };
    case "huge-literal":
      return { text: withUnknownField(base, defect.literal), contentType: json, label: `unknown field holding ${defect.literal}` };
    case "not-utf8": {
      // Sent as latin1, one byte a character: the JSON around the string is ASCII either way.
      const bytes = String.fromCharCode(...defect.bytes);
      return { text: withUnknownField(base, `"bytes ${bytes}"`), contentType: json, label: `bytes ${defect.bytes.map((b) => b.toString(16)).join(" ")} in a string`, latin1: true };
    }
    case "deep": {
      const deep = `${'{"a":['.repeat(defect.depth)}${"]}".repeat(defect.depth)}`;
      return defect.inField
        ? { text: withUnknownField(base, deep), contentType: json, label: `unknown field nested ${defect.depth} deep` }
        : { text: `[${deep}]`, contentType: json, label: `an array nested ${defect.depth} deep` };
    }
    case "schema": {
      const schema = requestSchema(spec);
      const properties = Object.keys(schema?.properties ?? {});
      const body: Record<string, Json> = base;
      for (const [index, value] of defect.noise) if (properties.length) set(body, properties[index % properties.length]!, value);
      const required = schema?.required ?? [];
      let breakWith = defect.breakWith;
      if (breakWith === "missing-field" && required.length === 0) breakWith = "unknown-field";
      if (breakWith === "wrong-type" && properties.length === 0) breakWith = "unknown-field";
      let field: string;
      switch (breakWith) {
        case "unknown-field":
          field = unknownFieldNames[defect.field % unknownFieldNames.length]!;
          set(body, field, defect.value);
          break;
        case "missing-field":
          field = required[defect.field % required.length]!;
          delete body[field];
          break;
        case "wrong-type": {
          field = properties[defect.field % properties.length]!;
          const declared = deref(schema!.properties![field]).type;
          const types = (Array.isArray(declared) ? declared : [declared]).map((t) => (t === "integer" ? "number" : t));
          set(body, field, wrongTypeCandidates.find((candidate) => !types.includes(jsonTypeOf(candidate)) && (types[0] !== undefined || candidate === "\ud800"))!);
          break;
        }
        case "lone-surrogate":
          field = properties.length ? properties[defect.field % properties.length]! : `\u00a7fuzz${defect.field}`;
          set(body, field, `${typeof body[field] === "string" ? body[field] : ""}\ud800`);
          break;
      }
      return { text: JSON.stringify(body), contentType: json, label: `${breakWith} ${field}` };
    }
  }
}

const families = ["credential", "idempotency-key", "body", "path", "query", "method"] as const;
type Family = (typeof families)[number];

/**
 * How often each way of breaking a request is picked (percent). The credential is checked
 * first, so a broken one hides the rest of the request: it is picked least.
 */
const familyWeights: Record<Family, number> = { credential: 10, "idempotency-key": 20, body: 60, path: 45, query: 30, method: 10 };

/** A non-empty set of the families `spec` can be broken in, each picked by its weight. */
function brokenFamilies(spec: OperationSpec): fc.Arbitrary<Family[]> {
  const applicable = familiesOf(spec);
  return fc
    .tuple(fc.array(fc.integer({ min: 0, max: 99 }), { minLength: applicable.length, maxLength: applicable.length }), fc.nat())
    .map(([rolls, fallback]) => {
      // A roll shrinks towards 0, and 0 picks nothing: a shrunk counterexample keeps only the defects it needs.
      const picked = applicable.filter((family, index) => rolls[index]! >= 100 - familyWeights[family]);
      const deeper = applicable.filter((family) => family !== "credential");
      return picked.length > 0 ? picked : [deeper[fallback % deeper.length] ?? applicable[0]!];
    });
}

/** The ways `spec`'s requests can be broken so that the gateway must refuse them before anything is written. */
function familiesOf(spec: OperationSpec): Family[] {
  return families.filter((family) => {
    switch (family) {
      case "credential":
        return spec.auth !== "none";
      case "idempotency-key":
        return spec.idempotency !== null;
      case "body":
        return spec.method !== "GET";
      case "path":
        return spec.path.includes("{");
      case "query":
      case "method":
        return true;
    }
  });
}

// ---------------------------------------------------------------- the test

describe("fuzzing every operation of the OpenAPI document", () => {
  let api: TestPlatform;
  let otpToken: string;

  beforeAll(async () => {
    // Rate limits out of reach, so that requests get as far as the checks being fuzzed.
    const unlimited = Object.fromEntries(
      ["CREDENTIAL", "PROJECT"].flatMap((who) => ["READS", "WRITES"].map((what) => [`RATE_LIMIT_${who}_${what}`, "1000000"])),
    );
    api = await startTestPlatform(unlimited);
    otpToken = await api.serviceToken(api.platform.projectId, ["otp:generate", "otp:verify", "otp:read"]);
  });
  afterAll(() => api.close());

  /** Everything the platform has stored, less what legitimately changes while requests are refused. */
  const snapshot = () => snapshotStores(api.platform.stores, changedByRefusedRequests);

  function validCredential(spec: OperationSpec): string | undefined {
    if (spec.auth === "none") return undefined;
    if (spec.auth === "admin") return api.platform.adminApiKey;
    return spec.credential === "service_token" ? otpToken : api.platform.testApiKey;
  }

  function brokenCredential(spec: OperationSpec, defect: CredentialDefect, junk: string): string | undefined {
    switch (defect) {
      case "missing":
        return undefined;
      case "scheme-only":
        return "Bearer";
      case "basic":
        return "Basic dXNlcjpwYXNzd29yZA==";
      case "lowercase":
        return `bearer${junk}`;
      case "unknown-api-key":
        return `Bearer sk_test_${junk.replace(/[^A-Za-z0-9]/g, "")}0000000000000000`;
      case "unknown-live-key":
        return "Bearer sk_live_00000000000000000000000000000000";
      case "not-a-jwt":
        return "Bearer a.b.c";
      case "unsigned-jwt":
        return `Bearer ${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(`{"sub":"x","scope":"otp:read payments:write","project_id":"${api.platform.projectId}","environment":"test"}`).toString("base64url")}.`;
      case "huge":
        return `Bearer ${"k".repeat(6_000)}`;
      case "junk":
        return `Bearer ${junk}\u00ff`;
      case "wrong-kind":
        // The credential of another audience: admin key on the API, API key on OTP and admin.
        return `Bearer ${spec.auth === "admin" || spec.credential === "service_token" ? api.platform.testApiKey : api.platform.adminApiKey}`;
    }
  }

  /** Every request of `spec`, broken in the ways `broken` names and noisy elsewhere. */
  function requestsOf(spec: OperationSpec): fc.Arbitrary<FuzzRequest> {
    const names = [...spec.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
    return fc
      .record({
        broken: brokenFamilies(spec),
        credentialDefect: fc.constantFrom(...credentialDefects),
        junk: headerText(30),
        // Too short, or too long even once the server trims the value's outer spaces.
        idempotencyKey: fc.oneof(headerText(15), fc.integer({ min: 256, max: 600 }).chain((length) => headerText(length - 2).map((text) => `k${text.padEnd(length - 2, "k")}k`))),
        body: bodyDefect,
        pathParameter: fc.nat(),
        segment: refusedSegment,
        // Other parameters: a plausible id, or junk that may be well-formed (a GET then answers 404).
        otherSegments: fc.array(fc.oneof(fc.constant(undefined), fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }).map(encodeURIComponent)), { minLength: names.length, maxLength: names.length }),
        query: refusedQuery,
        noisyQuery: noisyQuery(spec),
        correlationId: fc.option(headerText(80)),
        method: fc.shuffledSubarray(["PUT", "DELETE", "OPTIONS", "PATCH", "POST", "GET", "TRACE"], { minLength: 7 }),
        extraHeaders: fc.dictionary(
          fc.oneof(fc.stringMatching(/^x-fuzz-[a-z]{1,8}$/), fc.constantFrom("Accept", "Accept-Charset", "Content-Encoding", "Content-Language", "Cookie", "Origin", "X-Forwarded-For", "Forwarded")),
          fc.oneof(headerText(40), fc.constantFrom("gzip", "br", "deflate, gzip", "identity", "*/*", "text/html", "application/json; q=0")),
          { maxKeys: 3 },
        ),
      })
      .map((sample): FuzzRequest => {
        const broken = new Set(sample.broken);
        const defects: string[] = [];
        const headers: Record<string, string> = { ...sample.extraHeaders };
        if (sample.correlationId !== null) headers["X-Correlation-Id"] = sample.correlationId;

        if (broken.has("credential")) {
          defects.push(`credential: ${sample.credentialDefect}`);
          const credential = brokenCredential(spec, sample.credentialDefect, sample.junk);
          if (credential !== undefined) headers.Authorization = credential;
        } else {
          const credential = validCredential(spec);
          if (credential !== undefined) headers.Authorization = `Bearer ${credential}`;
        }

        if (spec.idempotency) {
          if (broken.has("idempotency-key")) {
            defects.push(`Idempotency-Key of ${sample.idempotencyKey.length} characters`);
            if (sample.idempotencyKey !== "") headers["Idempotency-Key"] = sample.idempotencyKey;
          } else {
            headers["Idempotency-Key"] = `fuzz-${sample.junk.replace(/[^A-Za-z0-9]/g, "")}-0123456789abcdef`;
          }
        }

        let body: string | undefined;
        let bodyEncoding: FuzzRequest["bodyEncoding"];
        if (broken.has("body")) {
          const built = buildBody(spec, sample.body);
          defects.push(`body: ${built.label}`);
          body = built.text;
          if (built.latin1) bodyEncoding = "latin1";
          if (built.contentType !== undefined) headers["Content-Type"] = built.contentType;
        } else if (spec.method !== "GET" && spec.operation.requestBody) {
          body = JSON.stringify(exampleBody(spec));
          headers["Content-Type"] = "application/json";
        }

        const brokenName = names[sample.pathParameter % Math.max(names.length, 1)];
        const path = spec.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
          if (broken.has("path") && name === brokenName) return sample.segment;
          const other = sample.otherSegments[names.indexOf(name)];
          if (other !== undefined) return other;
          return name === "projectId" ? api.platform.projectId : `${name.replace(/Id$/, "")}_fuzz`;
        });
        if (broken.has("path")) defects.push(`path: ${brokenName} = ${sample.segment}`);

        let query = spec.method === "GET" ? sample.noisyQuery : "";
        if (broken.has("query")) {
          defects.push(`query: ${sample.query}`);
          query = query ? `${query}&${sample.query}` : sample.query;
        }
        let method: string = spec.method;
        if (broken.has("method")) {
          // A method the path does not have (HEAD is GET's and answers without a body).
          const others = operations.filter((o) => o.pattern.test(path.split("?")[0]!)).map((o) => o.method);
          method = sample.method.find((candidate) => !others.includes(candidate as OperationSpec["method"]) && !(candidate === "HEAD" && others.includes("GET")))!;
          defects.push(`method: ${method}`);
        }
        return { operationId: spec.operationId, defects, method, path: query ? `${path}?${query}` : path, headers, body, ...(bodyEncoding ? { bodyEncoding } : {}) };
      });
  }

  it("answers every broken request of every operation with a 4xx envelope and writes nothing", async () => {
    expect(operations.length).toBeGreaterThan(40);
    // What the stores must still hold. After a request that wrote, it becomes what that request
    // left, so that shrinking the counterexample looks for a request that writes, not for any.
    let expected = await snapshot();
    const allRequests = fc.oneof(...operations.map((spec) => requestsOf(spec)));
    const seen = new Set<string>();

    await fc.assert(
      fc.asyncProperty(allRequests, async (fuzz) => {
        seen.add(fuzz.operationId);
        const response = await rawRequest(api.platform.gatewayUrl, fuzz.method, fuzz.path, fuzz.headers, fuzz.body === undefined ? undefined : Buffer.from(fuzz.body, fuzz.bodyEncoding ?? "utf8"));
        const answer = `${response.status} ${response.text.slice(0, 500)}`;
        expect(response.status, answer).toBeGreaterThanOrEqual(400);
        expect(response.status, answer).toBeLessThan(500);
        expect(response.body, answer).toMatchObject({
          success: false,
          error: { code: expect.any(String), message: expect.any(String) },
          meta: { correlationId: expect.any(String) },
        });
        expect(response.body.meta.correlationId, answer).toBe(response.headers.get("x-correlation-id"));
        expect(checkResponse(fuzz.method, fuzz.path, response.status, response.body).problems, answer).toEqual([]);
        const after = await snapshot();
        if (!isDeepStrictEqual(after, expected)) {
          const before = expected;
          expected = after;
          expect(after, `${answer}: the stores changed`).toEqual(before);
        }
      }),
      { numRuns, seed, verbose: 1 },
    );
    // fc.oneof picks operations evenly: a run of this size reaches each of them.
    expect(operations.filter((spec) => !seen.has(spec.operationId)).map((spec) => spec.operationId)).toEqual([]);
  }, 120_000);
});
