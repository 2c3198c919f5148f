import { LINK_MINIMUM_AMOUNT } from "../amount-limits.js";
import { failedState } from "../api-error.js";
import { AttributeReader } from "../attribute-reader.js";
import { randomBase62 } from "../ids.js";
import type { ApiRequest, Simulation } from "../simulation.js";
import type { Rendered, StoredObject } from "../state.js";
import { createPayment } from "./payments.js";

const TYPE = "link";

/**
 * A link as `/v1/links` and `link.payment.paid` show it: each `payments[]` entry wrapped as
 * `{"data":{"id","type":"payment","attributes"}}` [O link.payment.paid example].
 */
function renderLink(sim: Simulation, link: StoredObject): Rendered {
  const rendered = sim.state.render(link);
  const payments = rendered.attributes["payments"];
  rendered.attributes["payments"] = Array.isArray(payments) ? payments.map((payment: unknown) => ({ data: payment })) : [];
  return rendered;
}

/** Legacy `/v1/links` ([O]); its `checkout_url` is `{simulator}/pm.link/<reference_number>` here. */
export function createLink(sim: Simulation, req: ApiRequest) {
  const r = new AttributeReader(req.attributes);
  const amount = r.integer("amount", { required: true, min: LINK_MINIMUM_AMOUNT });
  const description = r.string("description", { required: true, maxLength: 255 });
  const remarks = r.string("remarks", { maxLength: 255 });
  r.done();
  const referenceNumber = randomBase62(7);
  const link = sim.state.create(
    req.account,
    "link",
    TYPE,
    {
      amount,
      archived: false,
      currency: "PHP",
      description,
      fee: 0,
      remarks: remarks ?? null,
      status: "unpaid",
      tax_amount: null,
      taxes: [],
      checkout_url: `${sim.state.baseUrl}/pm.link/${referenceNumber}`,
      reference_number: referenceNumber,
      payments: [],
    },
    { payments: [] },
  );
  return { data: renderLink(sim, link) };
}

export function getLink(sim: Simulation, req: ApiRequest) {
  return { data: renderLink(sim, sim.state.owned(req.account, req.params[0], TYPE)) };
}

/** `GET /v1/links?reference_number=…` answers a list ([O]: the SDKs read `data[0]`). */
export function listLinks(sim: Simulation, req: ApiRequest) {
  const reference = req.query.get("reference_number");
  const links = sim.state.list(req.account, TYPE, (o) => !reference || o.attributes["reference_number"] === reference);
  return { data: links.map((o) => renderLink(sim, o)), has_more: false };
}

export function archiveLink(archived: boolean) {
  return (sim: Simulation, req: ApiRequest) => {
    const link = sim.state.owned(req.account, req.params[0], TYPE);
    sim.state.update(link, { archived });
    return { data: renderLink(sim, link) };
  };
}

export function findLinkByReference(sim: Simulation, reference: string): StoredObject | undefined {
  return sim.state.all(TYPE).find((o) => o.attributes["reference_number"] === reference);
}

/** Someone pays the link: `payment.paid`, then `link.payment.paid` with the link and its payments. */
export function payLink(sim: Simulation, link: StoredObject, method = "gcash"): { paymentId: string } {
  if (link.attributes["status"] !== "unpaid" || link.attributes["archived"]) {
    throw failedState(`The link ${link.id} is ${link.attributes["archived"] ? "archived" : String(link.attributes["status"])} and cannot be paid.`);
  }
  const payment = createPayment(sim.state, link, {
    amount: link.attributes["amount"] as number,
    currency: "PHP",
    description: link.attributes["description"] as string,
    method,
    status: "paid",
    paymentIntentId: null,
    metadata: null,
    origin: "links",
  });
  (link.refs["payments"] as string[]).push(payment.id);
  sim.state.update(link, { status: "paid", fee: payment.attributes["fee"] });
  sim.state.emit("payment.paid", payment);
  sim.state.emit("link.payment.paid", renderLink(sim, link), link);
  return { paymentId: payment.id };
}
