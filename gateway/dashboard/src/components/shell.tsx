import { useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import type { DashboardRoute } from "../routing";
import { useWorkspace } from "../workspace";
import { EnvironmentSwitch } from "./environment-switch";
import { NavMenu } from "./nav-menu";
import { PageRoutes } from "./page-routes";
import { ProjectPicker } from "./project-picker";
import { useProjects } from "./projects-query";
import { EmptyState, ErrorState, Loading } from "./states";

/** Pages that work without a chosen project (creating the first one). */
const needsNoProject = (location: string) => location === "/projects" || location.startsWith("/projects/");

/**
 * The signed-in frame: a LIVE band in live mode, the header (project, environment, sign-out),
 * the menu (a button opens it on narrow screens) and the pages.
 */
export function Shell({ routes, onSignOut }: { routes: DashboardRoute[]; onSignOut: () => Promise<void> }) {
  const workspace = useWorkspace();
  const { projectId, environment } = workspace;
  const projects = useProjects();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const live = environment === "live";

  useEffect(() => setMenuOpen(false), [location]);

  // The remembered project may be gone (another gateway, a fresh data directory): take the newest.
  const list = projects.data;
  useEffect(() => {
    if (list && list.length > 0 && !list.some((project) => project.projectId === projectId)) workspace.selectProject(list[0].projectId);
  }, [list, projectId, workspace]);

  const chosen = list?.some((project) => project.projectId === projectId) ?? false;
  let body;
  if (needsNoProject(location) || chosen) body = <PageRoutes routes={routes} testMode={!live} />;
  else if (projects.isPending) body = <Loading what="projects" />;
  else if (projects.isError) body = <ErrorState error={projects.error} retry={() => void projects.refetch()} />;
  else if (list?.length === 0)
    body = (
      <EmptyState title="There are no projects yet.">
        Every payment belongs to a project. <Link href="/projects">Create a project</Link>, then issue it an API key.
      </EmptyState>
    );
  else body = <Loading what="the project" />;

  return (
    <>
      {live ? (
        <div className="live-band" role="note">
          LIVE — real payments and real money
        </div>
      ) : null}
      <header className={live ? "app-header live" : "app-header"}>
        <span className="brand">Bayad</span>
        <button
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="side-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <div className="header-controls">
          {list && list.length > 0 ? <ProjectPicker projects={list} /> : null}
          <EnvironmentSwitch />
          <button type="button" onClick={() => void onSignOut()}>
            Sign out
          </button>
        </div>
      </header>
      <div className="layout">
        <NavMenu routes={routes} open={menuOpen} testMode={!live} />
        <main className="content">{body}</main>
      </div>
    </>
  );
}
