import type { DescEnum } from "@bufbuild/protobuf";

/**
 * Proto enums are named RESOURCE_STATUS_VALUE; the public interface uses the lowercase value.
 * These two helpers are the only place that mapping lives.
 */
export function enumToText(desc: DescEnum, value: number): string {
  const found = desc.values.find((v) => v.number === value);
  if (!found || found.number === 0) throw new Error(`${desc.typeName} has no value ${value}`);
  return found.localName.toLowerCase();
}

export function textToEnum(desc: DescEnum, text: string): number {
  const found = desc.values.find((v) => v.number !== 0 && v.localName.toLowerCase() === text);
  if (!found) throw new Error(`${desc.typeName} has no value ${text}`);
  return found.number;
}

/** Like enumToText, but null for UNSPECIFIED or a value this build does not know (for data read back). */
export function enumToTextOrNull(desc: DescEnum, value: number): string | null {
  const found = desc.values.find((v) => v.number === value);
  return !found || found.number === 0 ? null : found.localName.toLowerCase();
}
