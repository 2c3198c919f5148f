/**
 * A 400's details ("dunning.steps[1].offsetDays: must be …") by the field they name, so a form
 * shows each beside its field; the ones naming no field the form shows come back as `other`. The
 * gateway's schema checks name an array's item by a dotted index (`dunning.steps.0.offsetDays`),
 * the services by brackets: both are read as brackets.
 */
export function detailsByField(details: readonly string[], shown: (field: string) => boolean): { byField: Map<string, string[]>; other: string[] } {
  const byField = new Map<string, string[]>();
  const other: string[] = [];
  for (const detail of details) {
    const at = detail.indexOf(": ");
    const field = at > 0 ? detail.slice(0, at).replace(/\.(\d+)(?=\.|$)/g, "[$1]") : "";
    if (field && shown(field)) byField.set(field, [...(byField.get(field) ?? []), detail.slice(at + 2)]);
    else other.push(detail);
  }
  return { byField, other };
}
