import { useQuery } from "@tanstack/react-query";
import { useProjects } from "../../components/projects-query";
import { ErrorState, Loading } from "../../components/states";
import { useWorkspace } from "../../workspace";
import { otpSettingsQuery } from "./otp-settings";
import { OtpSettingsForm } from "./otp-settings-form";

/**
 * How the chosen project's one-time passcodes are sent in the chosen environment (each has its
 * own; docs/api/otp.md, "Country permissions" and "Templates"): read (the defaults when never
 * set), edited and saved on this page.
 */
export function OtpSettingsPage() {
  const { projectId = "", environment } = useWorkspace();
  const project = useProjects().data?.find((candidate) => candidate.projectId === projectId);
  const settings = useQuery({ ...otpSettingsQuery(projectId, environment), enabled: projectId !== "" });
  const mode = environment === "live" ? "live" : "test";

  let body;
  if (settings.isPending) body = <Loading what="the OTP settings" />;
  else if (settings.error) body = <ErrorState error={settings.error} retry={() => void settings.refetch()} />;
  else
    body = (
      // A fresh form per project and environment, holding what was read.
      <OtpSettingsForm key={`${projectId}:${environment}`} projectId={projectId} environment={environment} settings={settings.data} />
    );

  return (
    <section className="page otp-settings-page">
      <h1>OTP settings</h1>
      <p className="muted">
        How the one-time passcodes of {project?.name ?? "this project"} are sent in {mode} mode: the countries they may go to by SMS, the app name they
        give and the message in each language. Test and live each have their own; switch the environment to edit the other.
      </p>
      {body}
    </section>
  );
}
