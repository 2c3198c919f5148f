/**
 * What the platform process (platform-process.ts) and the benchmark say to each other over IPC.
 * Shared by both sides so a renamed command fails to compile rather than to answer.
 */

/** Sent once the platform listens. */
export interface PlatformReady {
  gatewayUrl: string;
  /** A test-mode API key of `projectId`, issued at start. */
  testApiKey: string;
  projectId: string;
  /** For the setup calls only an operator can make (service tokens, the OTP development outbox). */
  adminApiKey: string;
  /**
   * The operating system's id of the thread the services run on (the process id when they share
   * the main thread), for CPU per thread; null where /proc cannot tell.
   */
  servicesThreadId: number | null;
}

/**
 * - `memory`: collect garbage, then read rss, heap and peak rss (a MemoryReading);
 * - `drain`: resolve once every outbox is published and the records feed has caught up;
 * - `count-records`: how many payment records the records service holds;
 * - `drop-data`: delete every stored document except the gateway's credentials;
 * - `stop`: close the platform (the process exits when the parent then signals or disconnects).
 */
export type PlatformCommand = "memory" | "drain" | "count-records" | "drop-data" | "stop";
