import type { DashboardRoute } from "../../routing";
import { ProjectPage } from "./project-page";
import { ProjectsPage } from "./projects-page";
import "./projects.css";

/** Projects and keys: create a project, issue (shown once) and revoke keys, provider accounts. */
export const routes: DashboardRoute[] = [
  { path: "/projects", component: ProjectsPage, nav: { label: "Projects & keys", order: 70 } },
  { path: "/projects/:id", component: ProjectPage },
];
