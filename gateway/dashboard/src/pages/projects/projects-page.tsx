import type { ColumnDef } from "@tanstack/react-table";
import { useLocation } from "wouter";
import { request } from "../../api/client";
import { useCursorPages } from "../../api/cursor-pages";
import { CopyId } from "../../components/copy-id";
import { DataTable } from "../../components/data-table";
import { LoadMore } from "../../components/load-more";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { DateTime } from "../../components/values";
import { useWorkspace } from "../../workspace";
import { CreateProjectForm } from "./create-project-form";
import { projectKeys, type Project } from "./types";

/** Every project, newest first; a row opens its keys and provider accounts. */
export function ProjectsPage() {
  const [, navigate] = useLocation();
  const { projectId: current } = useWorkspace();
  const list = useCursorPages(projectKeys.pages, async (cursor) => {
    const page = await request<{ projects: Project[]; nextCursor?: string }>("/admin/v1/projects", { query: { limit: 50, cursor } });
    return { items: page.projects, nextCursor: page.nextCursor };
  });
  const columns: ColumnDef<Project, unknown>[] = [
    {
      header: "Name",
      cell: ({ row }) => (
        <span>
          {row.original.name}
          {row.original.projectId === current ? <span className="current-badge"> current</span> : null}
        </span>
      ),
    },
    { header: "Id", cell: ({ row }) => <CopyId value={row.original.projectId} label="project id" /> },
    { header: "Created", cell: ({ row }) => <DateTime iso={row.original.createdAt} /> },
  ];

  return (
    <section className="page projects-page">
      <h1>Projects &amp; keys</h1>
      <p className="muted">A project holds its own payments, keys and provider accounts. Open one to issue or revoke its API keys.</p>
      <CreateProjectForm />
      <h2>Projects</h2>
      {list.isPending ? (
        <Loading what="projects" />
      ) : list.error ? (
        <ErrorState error={list.error} retry={list.refetch} />
      ) : list.items.length === 0 ? (
        <EmptyState title="No projects yet">Create one above, then issue it a test API key.</EmptyState>
      ) : (
        <>
          <DataTable
            caption="Projects"
            columns={columns}
            rows={list.items}
            rowId={(project) => project.projectId}
            onOpen={(project) => navigate(`/projects/${project.projectId}`)}
          />
          <LoadMore hasMore={list.hasMore} loading={list.loadingMore} onLoad={list.loadMore} what="projects" />
        </>
      )}
    </section>
  );
}
