import { Link } from "wouter";
import { CopyId } from "../../components/copy-id";
import { Fields } from "../../components/fields";
import { useProjects } from "../../components/projects-query";
import { DateTime } from "../../components/values";
import { useWorkspace } from "../../workspace";
import { ApiKeysSection } from "./api-keys-section";
import { ProviderAccountCard } from "./provider-account-card";

/** One project: its keys (issue, revoke) and its provider accounts in test and live. */
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
    </section>
  );
}
