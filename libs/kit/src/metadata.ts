/**
 * Metadata keys are chosen by consumers and may hold characters a document store treats
 * specially ("." and "$" in MongoDB field names), so metadata is stored as a list of pairs.
 */
export type StoredMetadata = Array<{ key: string; value: string }>;

export function toStoredMetadata(metadata: Record<string, string>): StoredMetadata {
  return Object.entries(metadata).map(([key, value]) => ({ key, value }));
}

export function fromStoredMetadata(metadata: StoredMetadata | undefined): Record<string, string> {
  return Object.fromEntries((metadata ?? []).map(({ key, value }) => [key, value]));
}
