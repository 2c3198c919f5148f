import { useQuery } from "@tanstack/react-query";
import { request } from "../api/client";
import type { Project as ProjectSummary, ProjectPage } from "../api/schemas";

export type { ProjectSummary };

/** The query key of the project list: invalidate it after creating a project. */
export const projectsQueryKey = ["admin", "projects"] as const;

/** Pages read at most: 10 × 200 projects, far more than a picker can show usefully. */
const maxPages = 10;

async function allProjects(): Promise<ProjectSummary[]> {
  const projects: ProjectSummary[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await request<ProjectPage>("/admin/v1/projects", {
      query: { limit: 200, cursor },
    });
    projects.push(...answer.projects);
    cursor = answer.nextCursor;
    if (!cursor) break;
  }
  return projects;
}

/** Every project (newest first), for the picker. */
export function useProjects() {
  return useQuery({ queryKey: projectsQueryKey, queryFn: allProjects });
}
