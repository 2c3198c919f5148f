/**
 * Node.js flags of the one-process mode (`npm start`, and the benchmark's platform process).
 *
 * In that mode every embedded store keeps its documents in the V8 heap, so the old generation
 * holds the whole dataset (hundreds of MB at 100 000 checkouts). With V8's default 16 MB
 * semi-spaces, objects of requests still in flight survive two scavenges and are promoted, and
 * each scavenge grows slower as the old generation grows: a records page cost 1.4x as much CPU at
 * 100 000 checkouts as at 10 000 (bench/README.md, profile notes). 64 MB semi-spaces (a young
 * generation of up to 192 MB, grown only under allocation pressure) keep request garbage young.
 * Deployed services keep their data in MongoDB and run with Node's defaults.
 */
export const oneProcessNodeFlags: readonly string[] = ["--max-semi-space-size=64"];
