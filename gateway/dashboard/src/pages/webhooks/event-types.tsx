/** An endpoint's subscribed event types; `*` is every type, including ones added later. */
export function EventTypes({ types }: { types: string[] }) {
  if (types.includes("*")) return <span>All events</span>;
  return (
    <ul className="event-types">
      {types.map((type) => (
        <li key={type}>
          <code>{type}</code>
        </li>
      ))}
    </ul>
  );
}
