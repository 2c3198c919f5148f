import { parseXenditEvent, type XenditEventSubject, type XenditProvider } from "@bayad/provider";
import { settleXenditCheckout, settleXenditPaymentIntent, settleXenditRefund } from "../providers/settle-from-xendit.js";
import { readerOf, type AppliedAs, type ApplyDeps, type Read } from "./event-read-back.js";
import type { ProviderEventRecord } from "./provider-events-repository.js";

/**
 * Applies one stored Xendit callback. Its token only proves the sender holds the account's
 * static token (anyone who ever saw it does; Xendit signs nothing), so the body is a hint of
 * which Bayad resource to look at, nothing more: Bayad's resource is found by the ids the hint
 * names, then Xendit's resource is read back with the account's key by the id Bayad recorded on
 * its own resource (never the callback's), and only what it verifiably says (reference, amount,
 * currency: verified-xendit-outcomes.ts) moves the checkout, intent or refund — the same reading
 * the reconciler makes. "rejected" when Xendit's resource does not confirm anything final (a
 * forged callback with the right token among them: logged, nothing changed); "ignored" when the
 * callback is about nothing this service keeps (an invoice: links' and billing's, a payment token, another account's
 * resource, an event Bayad does not read). Throws when it could not apply yet (Xendit out of
 * reach, the account paused): the applier tries again later.
 */
export async function applyXenditEvent(deps: ApplyDeps, record: ProviderEventRecord): Promise<AppliedAs> {
  const hint = parseXenditEvent(record.body);
  const found = await deps.providers.xenditOf(record.providerAccountId);
  if (!found || hint.subject === undefined) {
    if (found) deps.logger.info({ providerAccountId: record.providerAccountId, eventId: record.eventId, type: hint.event }, "provider event of a type Bayad does not act on");
    return "ignored";
  }
  const read = readerOf(deps, found.account, found.provider, record, hint.event);
  const cause = `event ${record.eventId}`;
  const subject = hint.subject;
  switch (subject.resource) {
    case "payment_session":
      return checkoutOf(deps, record.providerAccountId, subject, read, cause);
    case "payment":
    case "payment_request": {
      // An intent's payment request, or the request a checkout's session made on the payer's attempt.
      const requestId = subject.resource === "payment_request" ? subject.id : subject.paymentRequestId;
      const intent = requestId ? await deps.paymentIntents.repository.findByProviderReference(requestId) : null;
      if (intent) {
        if (intent.providerAccountId !== record.providerAccountId) return "ignored";
        return read(intent._id, (provider) => settleXenditPaymentIntent(deps, provider, intent, cause));
      }
      return checkoutOf(deps, record.providerAccountId, subject, read, cause);
    }
    case "refund": {
      // Bayad sends its refund id as the refund's reference_id; Xendit's refund id is read only while Bayad has none recorded.
      const refund = subject.referenceId ? await deps.refunds.repository.findByIdForProvider(subject.referenceId) : null;
      if (!refund || refund.providerAccountId !== record.providerAccountId || refund.status !== "pending") return "ignored";
      return read(refund._id, (provider) => settleXenditRefund(deps, provider, refund, cause, subject.id));
    }
    default:
      // An invoice (a payment link's or a subscription invoice's hosted payment) is the links or
      // billing service's: they find it paid by reading Xendit (their reconcilers), as for
      // PayMongo's link.payment.paid. Taken (2xx) and ignored here. Payment tokens are not used.
      deps.logger.info({ providerAccountId: record.providerAccountId, eventId: record.eventId, type: hint.event }, "provider event about nothing this service keeps");
      return "ignored";
  }
}

/** The checkout a callback names by its reference (Bayad's checkout id, which its session and the session's requests carry), read back by its session. */
async function checkoutOf(deps: ApplyDeps, accountId: string, subject: XenditEventSubject, read: Read<XenditProvider>, cause: string): Promise<AppliedAs> {
  const checkout = subject.referenceId ? await deps.checkouts.repository.findByIdForPage(subject.referenceId) : null;
  if (!checkout || checkout.providerAccountId !== accountId) return "ignored";
  return read(checkout._id, (provider) => settleXenditCheckout(deps, provider, checkout, cause));
}
