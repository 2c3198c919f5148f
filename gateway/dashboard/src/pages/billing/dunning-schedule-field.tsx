import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { useActingFor } from "../../workspace";
import { billingSettingsQuery, describeDunning } from "./billing-settings";

/**
 * The dunning schedule that applies to the chosen project's unpaid invoices, in words, with a
 * link to where it is set (the project's billing settings).
 */
export function DunningScheduleField() {
  const projectId = useActingFor()?.projectId ?? "";
  const settings = useQuery({ ...billingSettingsQuery(projectId), enabled: projectId !== "" });
  const where = <Link href={`/projects/${projectId}`}>Change it in the project's billing settings</Link>;
  if (settings.isPending) return <span className="muted">Loading the project's schedule…</span>;
  if (settings.error) return <span className="muted">The project's schedule could not be read ({settings.error.message}).</span>;
  return (
    <span className="dunning-schedule">
      {describeDunning(settings.data.dunning)} {where}.
    </span>
  );
}
