import { connect } from "nats";
import { isNotFound, jetStreamNames } from "../jetstream-definitions.js";

/**
 * Deletes a namespace's stream (and with it its consumers). For tests that share a NATS server:
 * each cleans up its own namespace. Resolves false when there was nothing to delete.
 */
export async function deleteJetStreamNamespace(options: { url: string; namespace: string }): Promise<boolean> {
  const names = jetStreamNames(options.namespace);
  if (names.subjectPrefix === "") throw new Error("refusing to delete the un-namespaced event stream");
  const nc = await connect({ servers: options.url });
  try {
    const jsm = await nc.jetstreamManager();
    return await jsm.streams.delete(names.stream).catch((error: unknown) => {
      if (isNotFound(error)) return false;
      throw error;
    });
  } finally {
    await nc.close();
  }
}
