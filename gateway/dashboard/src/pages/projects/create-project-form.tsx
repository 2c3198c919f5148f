import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "wouter";
import { request } from "../../api/client";
import { projectsQueryKey } from "../../components/projects-query";
import { ErrorState } from "../../components/states";
import { useWorkspace } from "../../workspace";
import type { Project } from "./types";

/** Creates a project by name, then offers to switch the dashboard to it. */
export function CreateProjectForm() {
  const queryClient = useQueryClient();
  const workspace = useWorkspace();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [created, setCreated] = useState<Project>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      // Admin operations take no Idempotency-Key; the button is disabled while the call runs.
      const project = await request<Project>("/admin/v1/projects", { method: "POST", body: { name: name.trim() } });
      setCreated(project);
      setName("");
      await queryClient.invalidateQueries({ queryKey: projectsQueryKey });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="create-project" aria-labelledby="create-project-title">
      <h2 id="create-project-title">Create a project</h2>
      <form onSubmit={(event) => void submit(event)} className="inline-form">
        <label>
          Project name
          <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={255} placeholder="My shop" />
        </label>
        <button type="submit" disabled={busy || name.trim() === ""}>
          {busy ? "Creating…" : "Create project"}
        </button>
      </form>
      {error ? <ErrorState error={error} /> : null}
      {created ? (
        <div className="notice" role="status">
          <p>
            Project <strong>{created.name}</strong> (<code>{created.projectId}</code>) was created.{" "}
            <Link href={`/projects/${created.projectId}`}>Issue it an API key</Link>.
          </p>
          {workspace.projectId === created.projectId ? (
            <p>The dashboard now shows this project.</p>
          ) : (
            <button type="button" onClick={() => workspace.selectProject(created.projectId)}>
              Switch to {created.name}
            </button>
          )}
        </div>
      ) : null}
    </section>
  );
}
