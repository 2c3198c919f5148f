import { AppError } from "@bayad/kit";
import type { Caller } from "./caller.js";

/**
 * Authorisation for one operation: the caller must hold at least one of `anyOf` (an empty list
 * means any authenticated caller will do). Some operations, OTP above all, are for services
 * only; an API key there is refused with its own code, because no scope would fix it and the
 * consumer needs to know to mint a service token instead.
 */
export function requireScopes(
  caller: Caller,
  anyOf: readonly string[],
  credential: "any" | "service_token" = "any",
): void {
  if (credential === "service_token" && caller.kind !== "service_token") {
    throw new AppError("SERVICE_TOKEN_REQUIRED");
  }
  if (anyOf.length === 0) return;
  if (anyOf.some((scope) => caller.scopes.includes(scope))) return;
  const needed = anyOf.join(", ");
  throw new AppError(
    "INSUFFICIENT_SCOPE",
    anyOf.length === 1
      ? `This operation needs the scope ${needed}.`
      : `This operation needs one of the scopes: ${needed}.`,
  );
}
