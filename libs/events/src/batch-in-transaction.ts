import type { Session, Store } from "@bayad/store";
import type { BatchHandler, MessageHandler } from "./bus.js";
import { traceMessages } from "./message-span.js";

/** Whose consumer a batch belongs to: the span's component and the durable consumer's name. */
export interface BatchConsumer {
  component: string;
  durableName: string;
}

/**
 * A batch handler that takes each batch in one store transaction: one commit (and, on the
 * embedded store, one disk flush) per batch instead of one per message. `handlerIn(session)`
 * gives the handler of one message whose writes belong to the transaction; each message goes
 * through it in delivery order, in a span under the trace of the change it announces (see
 * traceMessages), so a message's rules are what they are alone, and a message the handler skips
 * (resolves without writing) does not fail the batch. A throw aborts the transaction: nothing of
 * the batch is kept, and the bus delivers all of it again.
 *
 * `handlerIn` is called again for each run of the transaction (the store may run it again on a
 * transient conflict), so what a handler gathers for after the commit starts afresh with it.
 */
export function batchInTransaction(store: Store, consumer: BatchConsumer, handlerIn: (session: Session) => MessageHandler): BatchHandler {
  return (messages) =>
    store.transaction(async (session) => {
      const handle = traceMessages(consumer.component, consumer.durableName, handlerIn(session));
      for (const message of messages) await handle(message);
    });
}
