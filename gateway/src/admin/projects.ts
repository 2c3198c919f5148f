import { AppError, createCursorCodec, newId, type CursorScope, type PagePosition } from "@bayad/kit";
import type { Collection, CollectionDef, Filter, Store } from "@bayad/store";

/**
 * Projects: the tenant every credential resolves to. The gateway owns this collection because
 * tenancy is established at the edge; services only ever see the project id in caller context.
 */

interface ProjectDoc {
  _id: string;
  name: string;
  createdAt: Date;
}

/** The listing walks (createdAt, _id) newest first. */
export const projectsCollection: CollectionDef = {
  name: "projects",
  indexes: [{ name: "projects_listing", keys: { createdAt: -1, _id: -1 } }],
};

export interface Project {
  projectId: string;
  name: string;
  createdAt: Date;
}

/** A listing request; a zero limit and an empty cursor mean "not given". */
export interface ProjectsPageRequest {
  limit: number;
  cursor: string;
}

export interface ProjectsPage {
  projects: Project[];
  /** Absent on the last page. */
  nextCursor?: string;
}

export interface Projects {
  create(name: string): Promise<Project>;
  get(projectId: string): Promise<Project | null>;
  /** One page of every project, newest first (by createdAt, then id). */
  list(request: ProjectsPageRequest): Promise<ProjectsPage>;
}

export interface ProjectsOptions {
  /** Signs listing cursors (GATEWAY_SECRET). */
  cursorSecret: string;
}

/** ProjectCreateRequest.name's maxLength in the OpenAPI document. */
const maxNameLength = 255;
/** listProjects' `limit` in the OpenAPI document. */
const defaultPageLimit = 50;
const maxPageLimit = 200;
/** One listing, one scope: a cursor of another gateway listing is refused. */
const listingScope: CursorScope = ["projects"];

const projectOf = (doc: ProjectDoc): Project => ({ projectId: doc._id, name: doc.name, createdAt: doc.createdAt });

/** Narrows `filter` to the projects after `after` in listing order: a keyset continuation, never an offset. */
function continueAfter(after: PagePosition | undefined): Filter {
  if (!after) return {};
  return {
    // Implied by the $or, stated so the index walk starts at the position.
    createdAt: { $lte: after.createdAt },
    $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, _id: { $lt: after.id } }],
  };
}

export function createProjects(store: Store, options: ProjectsOptions): Projects {
  const projects: Collection<ProjectDoc> = store.collection<ProjectDoc>(projectsCollection);
  const cursors = createCursorCodec(options.cursorSecret, "projects-cursor");

  return {
    async create(name) {
      const trimmed = typeof name === "string" ? name.trim() : "";
      if (trimmed.length === 0 || trimmed.length > maxNameLength) {
        throw new AppError("VALIDATION_FAILED", undefined, {
          details: [`name must be 1 to ${maxNameLength} characters`],
        });
      }
      const doc: ProjectDoc = { _id: newId("prj"), name: trimmed, createdAt: new Date() };
      await projects.insertOne(doc);
      return projectOf(doc);
    },

    async get(projectId) {
      const doc = await projects.findOne({ _id: projectId });
      return doc ? projectOf(doc) : null;
    },

    async list(request) {
      if (!Number.isInteger(request.limit) || request.limit < 0 || request.limit > maxPageLimit) {
        throw new AppError("VALIDATION_FAILED", undefined, { details: [`limit: must be from 1 to ${maxPageLimit}`] });
      }
      const after = request.cursor !== "" ? cursors.read(request.cursor, listingScope) : undefined;
      const limit = request.limit === 0 ? defaultPageLimit : request.limit;
      // One more than asked tells whether another page exists without counting.
      const found = await projects.find(continueAfter(after), { sort: { createdAt: -1, _id: -1 }, limit: limit + 1 });
      const page = found.slice(0, limit);
      const last = page[page.length - 1];
      const nextCursor = found.length > limit && last ? cursors.issue({ createdAt: last.createdAt, id: last._id }, listingScope) : undefined;
      return { projects: page.map(projectOf), ...(nextCursor ? { nextCursor } : {}) };
    },
  };
}
