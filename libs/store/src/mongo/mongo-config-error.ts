/**
 * A MongoDB setting that cannot work: a timeout out of range, or a URI that names a deployment
 * Bayad cannot run on (a standalone server). Shaped like the kit's ConfigError (`setting`, then
 * the problem, as one line) because @bayad/kit depends on this package and not the other way
 * round: the platform turns it into a ConfigError naming its environment variable, which stops
 * the process with that one line.
 */
export class MongoConfigError extends Error {
  constructor(
    /** The setting at fault: a `MongoTimeouts` field, or "MONGODB_URI". */
    readonly setting: string,
    /** What is wrong with it, worded to follow the setting's name. */
    readonly problem: string,
  ) {
    super(`${setting} ${problem}`);
    this.name = "MongoConfigError";
  }
}
