import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { request, type ActingFor, type Environment, type RequestOptions } from "./api/client";

/**
 * Which project and environment the dashboard shows and acts for. The choice (not a secret) is
 * remembered in localStorage so a reload keeps it; the admin key never is.
 */
export interface Workspace {
  projectId: string | undefined;
  environment: Environment;
  selectProject(projectId: string): void;
  selectEnvironment(environment: Environment): void;
}

const WorkspaceContext = createContext<Workspace | undefined>(undefined);
const storageKey = "bayad.dashboard.workspace";

function remembered(): { projectId?: string; environment: Environment } {
  try {
    const saved = JSON.parse(localStorage.getItem(storageKey) ?? "{}") as { projectId?: unknown; environment?: unknown };
    return {
      projectId: typeof saved.projectId === "string" ? saved.projectId : undefined,
      environment: saved.environment === "live" ? "live" : "test",
    };
  } catch {
    return { environment: "test" };
  }
}

export function WorkspaceProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState(remembered);
  const save = useCallback((next: { projectId?: string; environment: Environment }) => {
    setState(next);
    localStorage.setItem(storageKey, JSON.stringify(next));
  }, []);
  const value = useMemo<Workspace>(
    () => ({
      projectId: state.projectId,
      environment: state.environment,
      selectProject: (projectId) => save({ ...state, projectId }),
      selectEnvironment: (environment) => save({ ...state, environment }),
    }),
    [state, save],
  );
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error("useWorkspace outside WorkspaceProvider");
  return workspace;
}

/** The chosen project and environment; undefined until a project is chosen. */
export function useActingFor(): ActingFor | undefined {
  const { projectId, environment } = useWorkspace();
  return useMemo(() => (projectId ? { projectId, environment } : undefined), [projectId, environment]);
}

/**
 * `request` for `/api/v1/…` paths, acting for the chosen project and environment. Pages render
 * only once a project is chosen (the shell asks for one first), so the acting-for is present.
 */
export function useProjectRequest(): <T>(path: string, options?: Omit<RequestOptions, "actingFor">) => Promise<T> {
  const actingFor = useActingFor();
  return useCallback(
    <T,>(path: string, options: Omit<RequestOptions, "actingFor"> = {}) => {
      if (!actingFor) return Promise.reject(new Error("no project chosen"));
      return request<T>(path, { ...options, actingFor });
    },
    [actingFor],
  );
}
