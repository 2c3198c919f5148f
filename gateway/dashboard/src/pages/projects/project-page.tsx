import { Link } from "wouter";
import { CopyId } from "../../components/copy-id";
import { Fields } from "../../components/fields";
import { useProjects } from "../../components/projects-query";
import { DateTime } from "../../components/values";
import { useWorkspace } from "../../workspace";
import { ApiKeysSection } from "./api-keys-section";
import { BillingSettingsSection } from "./billing-settings-section";
import { ProviderAccountCard } from "./provider-account-card";
import { RoutingSection } from "./routing-section";

/**
 * One project: its keys (issue, revoke), its provider accounts in test and live, how payments are
 * routed between them, and its billing settings (customer messages, dunning).
 */
export function ProjectPage({ params }: { params: Record<string, string | undefined> }) {
  const projectId = params.id ?? "";
  const workspace = useWorkspace();
  const project = useProjects().data?.find((candidate) => candidate.projectId === projectId);

  return (
    <section className="page project-page">
      <p className="breadcrumb">
        <Link href="/projects">← Projects</Link>
      </p>
      <h1>{project?.name ?? "Project"}</h1>
      <Fields
        label="Project"
        entries={[
          ["Id", <CopyId value={projectId} label="project id" />],
          ["Created", project ? <DateTime iso={project.createdAt} /> : undefined],
        ]}
      />
      {workspace.projectId === projectId ? (
        <p className="muted">The dashboard shows this project.</p>
      ) : (
        <button type="button" onClick={() => workspace.selectProject(projectId)}>
          Show this project in the dashboard
        </button>
      )}
      <ApiKeysSection projectId={projectId} />
      <section aria-labelledby="provider-accounts-title">
        <h2 id="provider-accounts-title">Provider accounts</h2>
        <div className="provider-accounts">
          <ProviderAccountCard projectId={projectId} environment="test" />
          <ProviderAccountCard projectId={projectId} environment="live" />
        </div>
      </section>
      <section aria-labelledby="provider-routing-title">
        <h2 id="provider-routing-title">Routing</h2>
        <p className="muted">
          Which account takes each new checkout and payment intent when the project holds more than one; a payment an account made nothing of
          fails over to the next. Refunds always go to the account that took the payment.
        </p>
        <RoutingSection projectId={projectId} environment="test" />
        <RoutingSection projectId={projectId} environment="live" />
      </section>
      <BillingSettingsSection projectId={projectId} />
    </section>
  );
}
