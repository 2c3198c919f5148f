/**
 * The renderer against what Go's text/template, Sprig and Helm do for the subset. Each expected
 * output is Go's (as documented, or as helm prints it); what lies outside the subset must be
 * refused, not approximated.
 */
import { describe, expect, it } from "vitest";
import { Executor } from "./execute.js";
import { functionNames } from "./functions.js";
import { parseTemplate } from "./parse.js";
import { GoStruct, toGoValue } from "./values.js";

function render(src: string, values: unknown = {}, extraDefines = ""): string {
  const parsed = parseTemplate(extraDefines + src, "t.yaml", functionNames);
  const root = new GoStruct("chartutil.Values", {
    Values: toGoValue(values),
    Release: new GoStruct("Release", { Name: "rel", Namespace: "ns", Service: "Helm" }),
    Chart: new GoStruct("chart.Metadata", { Name: "bayad", Version: "0.1.0", AppVersion: "1.2.3" }),
  });
  return new Executor(parsed.defines).execute(parsed.body, root);
}

describe("the Go template renderer", () => {
  it("trims white space at {{- and -}} markers, newlines included", () => {
    expect(render("a  \n  {{- 1 -}}  \n  b")).toBe("a1b");
    expect(render("a {{ 1 }} b")).toBe("a 1 b");
    expect(render("a\n{{- /* comment */}}\nb")).toBe("a\nb");
    expect(render("a\n{{- /* comment */ -}}\nb")).toBe("ab");
  });

  it("reads values; a missing key is empty (missingkey=zero) but a field of nil is an error", () => {
    expect(render("{{ .Values.a.b }}", { a: { b: "x" } })).toBe("x");
    expect(render("[{{ .Values.missing }}]")).toBe("[]");
    expect(() => render("{{ .Values.missing.deeper }}")).toThrow(/nil pointer evaluating interface \{\}\.deeper/);
  });

  it("refuses built-in objects it does not model", () => {
    expect(() => render("{{ .Capabilities.KubeVersion }}")).toThrow(/can't evaluate field Capabilities/);
    expect(() => render("{{ .Release.IsUpgrade }}")).toThrow(/can't evaluate field IsUpgrade/);
  });

  it("prints float64 values like Go's %v, so large numbers need int", () => {
    expect(render("{{ .Values.n }}", { n: 20000 })).toBe("20000");
    expect(render("{{ .Values.n }}", { n: 1000000 })).toBe("1e+06");
    expect(render("{{ .Values.n }}", { n: 3600000 })).toBe("3.6e+06");
    expect(render("{{ .Values.n }}", { n: 1234567 })).toBe("1.234567e+06");
    expect(render("{{ .Values.n }}", { n: 0.5 })).toBe("0.5");
    expect(render("{{ .Values.n | int }}", { n: 3600000 })).toBe("3600000");
    expect(render("{{ .Values.n | quote }}", { n: 1000000 })).toBe('"1e+06"');
    expect(render("{{ .Values.n | int | quote }}", { n: 1000000 })).toBe('"1000000"');
  });

  it("does integer arithmetic with add and div", () => {
    expect(render("{{ add .Values.a (div .Values.b 1000) 10 }}", { a: 5, b: 20500 })).toBe("35");
  });

  it("ranges over maps in key order, with key and element variables, and over lists", () => {
    expect(render("{{ range $k, $v := .Values.m }}{{ $k }}={{ $v }};{{ end }}", { m: { b: 2, a: 1, c: 3 } })).toBe("a=1;b=2;c=3;");
    expect(render("{{ range .Values.l }}<{{ .x }}>{{ end }}", { l: [{ x: 1 }, { x: 2 }] })).toBe("<1><2>");
    expect(render("{{ range .Values.l }}x{{ else }}none{{ end }}", { l: [] })).toBe("none");
    expect(render("{{ range .Values.missing }}x{{ end }}")).toBe("");
  });

  it("keeps $ as the root inside range and with", () => {
    expect(render("{{ range .Values.l }}{{ $.Release.Name }}-{{ . }} {{ end }}", { l: ["a", "b"] })).toBe("rel-a rel-b ");
    expect(render("{{ with .Values.w }}{{ .x }}/{{ $.Chart.Name }}{{ end }}", { w: { x: "y" } })).toBe("y/bayad");
  });

  it("follows Go's truth in if and with: 0, false, empty strings, lists and maps are false", () => {
    for (const falsy of [0, false, "", [], {}, null]) expect(render("{{ if .Values.v }}T{{ else }}F{{ end }}", { v: falsy })).toBe("F");
    for (const truthy of [1, true, "x", [0], { a: 1 }]) expect(render("{{ if .Values.v }}T{{ else }}F{{ end }}", { v: truthy })).toBe("T");
    expect(render("{{ if .Values.a }}A{{ else if .Values.b }}B{{ else }}C{{ end }}", { a: 0, b: 1 })).toBe("B");
    expect(render("{{ with .Values.v }}{{ . }}{{ else }}none{{ end }}", { v: "" })).toBe("none");
  });

  it("short-circuits and/or and returns the deciding argument", () => {
    expect(render("{{ or .Values.a .Values.b }}", { a: "", b: "b" })).toBe("b");
    expect(render("{{ and .Values.a .Values.b }}", { a: "a", b: 0 })).toBe("0");
    // The second argument would fail; short-circuiting never evaluates it.
    expect(render("{{ or true .Values.missing.x }}")).toBe("true");
    expect(render("{{ and false .Values.missing.x }}")).toBe("false");
  });

  it("compares with eq and ne like Go, refusing an int against a float64", () => {
    expect(render('{{ eq .Values.s "a" }} {{ ne .Values.s "a" }} {{ eq .Values.s "b" "a" }}', { s: "a" })).toBe("true false true");
    expect(() => render("{{ eq .Values.n 1 }}", { n: 1 })).toThrow(/incompatible types for comparison/);
  });

  it("applies Sprig's default: empty values (0, false, \"\") take the default", () => {
    expect(render('{{ .Values.v | default "d" }}', { v: "" })).toBe("d");
    expect(render('{{ .Values.v | default "d" }}', { v: false })).toBe("d");
    expect(render('{{ .Values.v | default "d" }}', { v: 0 })).toBe("d");
    expect(render('{{ .Values.v | default "d" }}', { v: "x" })).toBe("x");
    expect(render('{{ .Values.missing | default "d" }}')).toBe("d");
  });

  it("quotes, base64-encodes and formats with printf", () => {
    expect(render('{{ "a\\"b" | quote }} {{ .Values.t | quote }} {{ quote .Values.missing }}|', { t: true })).toBe('"a\\"b" "true" |');
    expect(render('{{ "hello" | b64enc }}')).toBe("aGVsbG8=");
    expect(render('{{ printf "%s-%d" .Release.Name (.Values.p | int) }}', { p: 50051 })).toBe("rel-50051");
    expect(() => render('{{ printf "%d" .Values.p }}', { p: 50051 })).toThrow(/%d of float64/);
    expect(() => render('{{ printf "%x" 1 }}')).toThrow(/only %s, %d/);
  });

  it("writes toYaml with sorted keys and indents with nindent", () => {
    expect(render("x:{{ toYaml .Values.m | nindent 2 }}", { m: { b: 1, a: { c: [1, 2] } } })).toBe("x:\n  a:\n    c:\n      - 1\n      - 2\n  b: 1");
    expect(render("{{ toYaml .Values.m }}", { m: {} })).toBe("{}");
    expect(render("{{ toYaml .Values.l }}", { l: [] })).toBe("[]");
    // YAML 1.1 words stay strings when written back.
    expect(render("{{ toYaml .Values.m }}", { m: { v: "on" } })).toBe('v: "on"');
  });

  it("includes defined templates with their own dot and $", () => {
    const defines = '{{- define "t" -}}{{ .root.Release.Name }}/{{ .name }}/{{ $.name }}{{- end -}}';
    expect(render('{{ include "t" (dict "root" $ "name" "n") }}', {}, defines)).toBe("rel/n/n");
    expect(() => render('{{ include "nope" . }}')).toThrow(/undefined template "nope"/);
  });

  it("scopes variables to their block and lets = assign an outer one", () => {
    expect(render("{{ $x := 1 }}{{ if true }}{{ $x = 2 }}{{ $y := 3 }}{{ end }}{{ $x }}")).toBe("2");
    expect(() => render("{{ if true }}{{ $y := 3 }}{{ end }}{{ $y }}")).toThrow(/undefined variable: \$y/);
  });

  it("fails with the message of required and fail", () => {
    expect(() => render('{{ required "x is required" .Values.x }}', { x: "" })).toThrow(/t\.yaml:1: x is required/);
    expect(render('{{ required "x is required" .Values.x }}', { x: 0 })).toBe("0");
    expect(() => render('{{ fail "stop" }}')).toThrow(/stop/);
  });

  it("reads lookup as empty (helm template) and index as Go does", () => {
    expect(render('{{ $s := lookup "v1" "Secret" "ns" "n" }}{{ if $s }}found{{ else }}empty{{ end }}|{{ index ($s.data | default dict) "k" }}|')).toBe("empty||");
    expect(render('{{ index .Values.m "a-b" }}|{{ index .Values.m "none" }}|', { m: { "a-b": "v" } })).toBe("v||");
  });

  it("makes random alphanumeric strings of the asked length", () => {
    expect(render("{{ randAlphaNum 40 }}")).toMatch(/^[A-Za-z0-9]{40}$/);
  });

  const outside: [string, string][] = [
    ["template", '{{ template "x" . }}'],
    ["block", '{{ block "x" . }}{{ end }}'],
    ["break", "{{ range .Values.l }}{{ break }}{{ end }}"],
    ["an unknown function", "{{ .Values.x | upper }}"],
    ["a float literal", "{{ 1.5 }}"],
    ["a hex literal", "{{ 0x10 }}"],
    ["a char literal", "{{ 'a' }}"],
    ["a method-style call", "{{ .Values.x 1 }}"],
    ["a field of a parenthesized value", "{{ (.Values).x }}"],
    ["else with", "{{ with .Values.a }}{{ else with .Values.b }}{{ end }}"],
    ["an unclosed if", "{{ if true }}x"],
    ["printing a map", "{{ .Values }}"],
  ];
  it.each(outside)("refuses %s loudly", (_what, src) => {
    expect(() => render(src, { l: [1] })).toThrow();
  });
});
