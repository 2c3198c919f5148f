import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, expectError, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";

/** The admin API's project listing (listProjects), over HTTP against a started platform. */

const projects = "/admin/v1/projects";

interface ListedProject {
  projectId: string;
  name: string;
  createdAt: string;
}

let api: TestPlatform;

beforeAll(async () => {
  api = await startTestPlatform();
});

afterAll(async () => {
  await api?.close();
});

const list = (query: string) => api.admin("GET", `${projects}${query ? `?${query}` : ""}`);

/** Every project, page by page, with `limit`. */
async function walk(limit: number): Promise<{ projects: ListedProject[]; pages: number }> {
  const all: ListedProject[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await list(`limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(page.status).toBe(200);
    all.push(...(page.body.data.projects as ListedProject[]));
    cursor = page.body.data.nextCursor as string | undefined;
    pages += 1;
  } while (cursor);
  return { projects: all, pages };
}

/** Newest first by createdAt, then by id. */
function inListingOrder(a: ListedProject, b: ListedProject): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.projectId < b.projectId ? 1 : a.projectId > b.projectId ? -1 : 0;
}

describe("listProjects", () => {
  it("answers createProject's projects with their createdAt, newest first, across pages, each once", async () => {
    const created: ListedProject[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await api.admin("POST", projects, { name: unique("shop") });
      expect(response.status).toBe(201);
      expect(Date.parse(response.body.data.createdAt as string)).not.toBeNaN();
      created.push(response.body.data as ListedProject);
    }

    const { projects: walked, pages } = await walk(2);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(new Set(walked.map((project) => project.projectId)).size).toBe(walked.length);
    expect(walked).toEqual([...walked].sort(inListingOrder));
    for (const project of created) expect(walked).toContainEqual(project);
    // The newest project comes first.
    const first = await list("limit=1");
    expect(first.body.data.projects).toEqual([created[created.length - 1]]);
    expect(first.body.data.nextCursor).toEqual(expect.any(String));
  });

  it("pages 50 projects by default and ends without nextCursor", async () => {
    while ((await walk(200)).projects.length < 51) await api.admin("POST", projects, { name: unique("many") });
    const total = (await walk(200)).projects.length;
    const first = await list("");
    expect(first.status).toBe(200);
    expect(first.body.data.projects).toHaveLength(50);
    expect(first.body.data.nextCursor).toEqual(expect.any(String));
    const all = await list("limit=200");
    expect(all.body.data.projects).toHaveLength(total);
    expect(all.body.data).not.toHaveProperty("nextCursor");
  });

  it("refuses a bad limit or a cursor it did not issue with 400 VALIDATION_FAILED naming the parameter", async () => {
    await api.admin("POST", projects, { name: unique("shop") });
    await api.admin("POST", projects, { name: unique("shop") });
    const cursor = (await list("limit=1")).body.data.nextCursor as string;
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith("AA") ? "BB" : "AA"}`;
    // A cursor of another listing (the records feed), though validly signed by its own service.
    const project = await api.newProject();
    for (let i = 0; i < 2; i += 1) await api.paidCheckout(project.testKey);
    const recordsCursor = await eventually(async () => {
      const page = await api.request("GET", "/api/v1/payments/records?limit=1", { credential: project.testKey });
      return page.body.data.nextCursor as string | undefined;
    });
    for (const [query, parameter] of [
      ["limit=0", "limit"],
      ["limit=201", "limit"],
      [`cursor=${encodeURIComponent(tampered)}`, "cursor"],
      [`cursor=${encodeURIComponent(recordsCursor)}`, "cursor"],
      ["cursor=not-a-cursor", "cursor"],
    ] as const) {
      const response = await list(query);
      expectError(response, 400, "VALIDATION_FAILED");
      expect(response.body.error.details, query).toEqual([expect.stringMatching(new RegExp(`^${parameter}\\b`))]);
    }
  });

  it("refuses a project API key", async () => {
    const project = await api.newProject();
    const response = await api.request("GET", projects, { credential: project.liveKey });
    expectError(response, 401, "INVALID_CREDENTIALS");
  });
});
