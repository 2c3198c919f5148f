import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type JetStreamManager,
  type StreamConfig,
} from "nats";
import type { Logger } from "@bayad/kit";

/**
 * The stream and durable consumers of the events bus, declared here in code and created on
 * demand (idempotently), so no deployment step has to prepare NATS.
 */

/** The subjects every service publishes under (see BusMessage.subject). */
export const EVENTS_SUBJECT_ROOT = "bayad.events";

export interface JetStreamNames {
  stream: string;
  /** "" or "<namespace>.": prepended on publish, stripped on delivery. */
  subjectPrefix: string;
  /** The stream's one subject filter, also every consumer's filter. */
  subjects: string;
}

/**
 * A namespace isolates runs that share one NATS server (test files, parallel CI jobs): its own
 * stream, its own subjects. It is folded to lower case and everything outside [a-z0-9_-] becomes
 * "_", so it is a valid subject token and (upper-cased) a valid stream name.
 */
export function jetStreamNames(namespace?: string): JetStreamNames {
  const ns = namespace?.trim().toLowerCase().replace(/[^a-z0-9_-]/g, "_") ?? "";
  const subjectPrefix = ns === "" ? "" : `${ns}.`;
  return {
    stream: ns === "" ? "BAYAD_EVENTS" : `BAYAD_EVENTS_${ns.toUpperCase()}`,
    subjectPrefix,
    subjects: `${subjectPrefix}${EVENTS_SUBJECT_ROOT}.>`,
  };
}

function streamConfig(names: JetStreamNames, duplicateWindowMs: number): Partial<StreamConfig> {
  return {
    name: names.stream,
    subjects: [names.subjects],
    // File storage: events survive a NATS restart, which the outbox has already let go of.
    storage: StorageType.File,
    // Limits retention keeps messages whether or not a consumer exists yet, so a durable created
    // later (a new service, a first deploy) still receives everything from the start.
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    duplicate_window: nanos(duplicateWindowMs),
  };
}

export function isNotFound(error: unknown): boolean {
  const code = (error as { api_error?: { err_code?: number } } | null)?.api_error?.err_code;
  // 10059 stream not found, 10014 consumer not found.
  return code === 10059 || code === 10014 || (error instanceof Error && /not found/i.test(error.message));
}

/** Creates the stream, or brings an existing one to the declared settings. */
export async function ensureStream(
  jsm: JetStreamManager,
  names: JetStreamNames,
  duplicateWindowMs: number,
  logger: Logger,
): Promise<void> {
  const wanted = streamConfig(names, duplicateWindowMs);
  let existing;
  try {
    existing = (await jsm.streams.info(names.stream)).config;
  } catch (error) {
    if (!isNotFound(error)) throw error;
    try {
      await jsm.streams.add(wanted);
      logger.info({ stream: names.stream }, "event stream created");
      return;
    } catch (addError) {
      // Another replica may have created it in between: fall through and compare with that one.
      existing = (await jsm.streams.info(names.stream).catch(() => Promise.reject(addError))).config;
    }
  }
  const same =
    existing.subjects?.length === 1 &&
    existing.subjects[0] === names.subjects &&
    existing.duplicate_window === wanted.duplicate_window;
  if (existing.storage !== StorageType.File) {
    // Storage cannot be changed in place; the stream still works, so say so and carry on.
    logger.warn({ stream: names.stream, storage: existing.storage }, "event stream is not on file storage");
  }
  if (!same) {
    await jsm.streams.update(names.stream, { subjects: wanted.subjects, duplicate_window: wanted.duplicate_window });
    logger.info({ stream: names.stream }, "event stream settings updated");
  }
}

/** JetStream rejects these characters in durable names; failing early gives a clear message. */
export function assertDurableName(durableName: string): void {
  if (!/^[A-Za-z0-9_-]+$/.test(durableName)) {
    throw new Error(`durable name "${durableName}" must match [A-Za-z0-9_-]+`);
  }
}

function consumerConfig(names: JetStreamNames, durableName: string): Partial<ConsumerConfig> {
  return {
    durable_name: durableName,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: names.subjects,
    // A handler has this long to finish before the message goes to another delivery.
    ack_wait: nanos(30_000),
    // Never give up on an event: a projection that is behind must still converge.
    max_deliver: -1,
  };
}

/** Creates the durable pull consumer, or brings an existing one to the declared settings. */
export async function ensureConsumer(
  jsm: JetStreamManager,
  names: JetStreamNames,
  durableName: string,
  logger: Logger,
): Promise<void> {
  const wanted = consumerConfig(names, durableName);
  let existing;
  try {
    existing = (await jsm.consumers.info(names.stream, durableName)).config;
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await jsm.consumers.add(names.stream, wanted);
    logger.info({ stream: names.stream, durable: durableName }, "durable consumer created");
    return;
  }
  if (
    existing.ack_wait !== wanted.ack_wait ||
    existing.max_deliver !== wanted.max_deliver ||
    existing.filter_subject !== wanted.filter_subject
  ) {
    await jsm.consumers.update(names.stream, durableName, {
      ack_wait: wanted.ack_wait,
      max_deliver: wanted.max_deliver,
      filter_subject: wanted.filter_subject,
    });
    logger.info({ stream: names.stream, durable: durableName }, "durable consumer settings updated");
  }
}
