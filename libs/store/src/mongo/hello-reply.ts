/**
 * The fields of MongoDB's `hello` reply that say what kind of deployment answered and whether it
 * can take writes now (https://www.mongodb.com/docs/manual/reference/command/hello/).
 */
export interface HelloReply {
  /** True on a replica set's primary, a standalone server and mongos. */
  isWritablePrimary?: boolean;
  /** The replica set's name; absent on a standalone server and on mongos. */
  setName?: string;
  /** "isdbgrid" when mongos (a sharded cluster's router) answered. */
  msg?: string;
  secondary?: boolean;
  arbiterOnly?: boolean;
}

/** The line a standalone server stops the process with (see `deploymentProblem`). */
export const STANDALONE_PROBLEM =
  "points at a standalone MongoDB server: Bayad needs a replica set (a single-node one will do) or mongos, because its writes use transactions";

const isMongos = (hello: HelloReply): boolean => hello.msg === "isdbgrid";

/**
 * Why this deployment can never run Bayad, or undefined when it can. A standalone server answers
 * every read and write, so it would pass for ready, then refuse every transaction: it is refused
 * at start instead, as a configuration error of MONGODB_URI.
 */
export function deploymentProblem(hello: HelloReply): string | undefined {
  if (isMongos(hello) || (typeof hello.setName === "string" && hello.setName !== "")) return undefined;
  return STANDALONE_PROBLEM;
}

/**
 * Why the member answering cannot take writes right now (readiness is not ready), or undefined
 * when it can: a replica set's primary, or mongos. A secondary, an arbiter or a member still
 * recovering answers reads and pings, so a ping alone would report ready during a failover.
 */
export function readinessProblem(hello: HelloReply): string | undefined {
  const deployment = deploymentProblem(hello);
  if (deployment !== undefined) return `MONGODB_URI ${deployment}`;
  if (isMongos(hello) || hello.isWritablePrimary === true) return undefined;
  const role = hello.arbiterOnly === true ? "an arbiter" : hello.secondary === true ? "a secondary" : "a member with no role yet (starting or recovering)";
  return `the MongoDB member answering is ${role}, not a writable primary`;
}
