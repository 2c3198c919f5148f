/** A resource's metadata as key = value lines; nothing when it has none. */
export function MetadataList({ metadata }: { metadata: Record<string, string> | undefined }) {
  const entries = Object.entries(metadata ?? {});
  if (entries.length === 0) return null;
  return (
    <ul className="metadata-list">
      {entries.map(([key, value]) => (
        <li key={key}>
          <code>{key}</code> = {value}
        </li>
      ))}
    </ul>
  );
}
