import { AppError, newId } from "@bayad/kit";
import type { Collection, CollectionDef, Store } from "@bayad/store";

/**
 * Projects: the tenant every credential resolves to. The gateway owns this collection because
 * tenancy is established at the edge; services only ever see the project id in caller context.
 */

interface ProjectDoc {
  _id: string;
  name: string;
  createdAt: Date;
}

export const projectsCollection: CollectionDef = { name: "projects" };

export interface Project {
  projectId: string;
  name: string;
}

export interface Projects {
  create(name: string): Promise<Project>;
  get(projectId: string): Promise<Project | null>;
}

/** ProjectCreateRequest.name's maxLength in the OpenAPI document. */
const maxNameLength = 255;

export function createProjects(store: Store): Projects {
  const projects: Collection<ProjectDoc> = store.collection<ProjectDoc>(projectsCollection);

  return {
    async create(name) {
      const trimmed = typeof name === "string" ? name.trim() : "";
      if (trimmed.length === 0 || trimmed.length > maxNameLength) {
        throw new AppError("VALIDATION_FAILED", undefined, {
          details: [`name must be 1 to ${maxNameLength} characters`],
        });
      }
      const projectId = newId("prj");
      await projects.insertOne({ _id: projectId, name: trimmed, createdAt: new Date() });
      return { projectId, name: trimmed };
    },

    async get(projectId) {
      const doc = await projects.findOne({ _id: projectId });
      return doc ? { projectId: doc._id, name: doc.name } : null;
    },
  };
}
