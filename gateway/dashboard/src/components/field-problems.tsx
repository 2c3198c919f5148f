/** What the API said about one form field (its 400's details naming it), beside the field; `id` is what the field's aria-describedby names. */
export function FieldProblems({ id, problems }: { id: string; problems: readonly string[] | undefined }) {
  if (!problems?.length) return null;
  return (
    <span className="field-problem" id={id}>
      {problems.join("; ")}
    </span>
  );
}
