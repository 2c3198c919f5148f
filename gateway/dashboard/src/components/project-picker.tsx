import { useId } from "react";
import type { ProjectSummary } from "./projects-query";
import { useWorkspace } from "../workspace";

/** Which project the pages show and act for. */
export function ProjectPicker({ projects }: { projects: ProjectSummary[] }) {
  const workspace = useWorkspace();
  const id = useId();
  // A label beside the select, not around it: a wrapping label's name would take in the chosen option.
  return (
    <div className="project-picker">
      <label htmlFor={id}>Project</label>
      <select id={id} value={workspace.projectId ?? ""} onChange={(event) => workspace.selectProject(event.target.value)}>
        {projects.map((project) => (
          <option key={project.projectId} value={project.projectId}>
            {project.name} ({project.projectId})
          </option>
        ))}
      </select>
    </div>
  );
}
