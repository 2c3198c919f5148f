import type { Context } from "koa";
import { AppError, isEnvironment } from "@bayad/kit";
import { apiKeyScopes, type Caller } from "./caller.js";

/**
 * The operator acting for a project: the admin key (or a dashboard session, which stands for it)
 * with `Bayad-Project` and `Bayad-Environment` naming the project and environment, like Stripe's
 * `Stripe-Account`. The operator then calls the project's operations with an API key's scopes,
 * so the dashboard needs no project credential of its own and reads nothing behind the API.
 */
export const actingForHeaders = { project: "Bayad-Project", environment: "Bayad-Environment" } as const;

/** Whether the request names a project to act for (either header present). */
export function namesProjectToActFor(ctx: Pick<Context, "get">): boolean {
  return ctx.get(actingForHeaders.project) !== "" || ctx.get(actingForHeaders.environment) !== "";
}

/**
 * The Caller an operator acts as. Both headers are required; an environment other than `test`
 * or `live` is a 400 naming the header; an unknown project is 404, as any id the caller cannot
 * see. `subject` names who acted (the session's digest, or `admin_key`), for rate limits and logs.
 */
export async function operatorCaller(
  ctx: Pick<Context, "get">,
  subject: string,
  projectExists: (projectId: string) => Promise<boolean>,
): Promise<Caller> {
  const projectId = ctx.get(actingForHeaders.project);
  const environment = ctx.get(actingForHeaders.environment);
  const details: string[] = [];
  if (!/^prj_[A-Za-z0-9]{1,64}$/.test(projectId)) {
    details.push(`${actingForHeaders.project}: must name the project to act for (prj_…)`);
  }
  if (!isEnvironment(environment)) details.push(`${actingForHeaders.environment}: must be test or live`);
  if (details.length > 0 || !isEnvironment(environment)) {
    throw new AppError("VALIDATION_FAILED", "Acting for a project needs both Bayad-Project and Bayad-Environment.", { details });
  }
  if (!(await projectExists(projectId))) {
    throw new AppError("RESOURCE_NOT_FOUND", `No project ${projectId}.`, { details: [`${actingForHeaders.project}: unknown project`] });
  }
  return { kind: "operator", projectId, environment, scopes: apiKeyScopes, subject };
}
