import type { useProjectRequest } from "../../workspace";

/** The request function bound to the chosen project and environment. */
export type ProjectRequest = ReturnType<typeof useProjectRequest>;
