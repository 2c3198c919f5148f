import type { ProjectSummary } from "./projects-query";
import { useWorkspace } from "../workspace";

/** Which project the pages show and act for. */
export function ProjectPicker({ projects }: { projects: ProjectSummary[] }) {
  const workspace = useWorkspace();
  return (
    <label className="project-picker">
      Project
      <select value={workspace.projectId ?? ""} onChange={(event) => workspace.selectProject(event.target.value)}>
        {projects.map((project) => (
          <option key={project.projectId} value={project.projectId}>
            {project.name} ({project.projectId})
          </option>
        ))}
      </select>
    </label>
  );
}
