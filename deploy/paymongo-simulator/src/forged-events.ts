import { isPlainObject } from "@bayad/simulator-kit";
import { PaymongoSimulatorError } from "./api-error.js";
import type { Simulation } from "./simulation.js";
import type { Account } from "./state.js";

export interface ForgedEvent {
  type: string;
  data: { id: string; type?: string; attributes: Record<string, unknown> };
  /** Names the account when `data.id` is no object the simulator holds. */
  secretKey?: string;
}

const invalid = (attribute: string, detail: string) =>
  new PaymongoSimulatorError(400, [{ code: "parameter_invalid", detail, source: { pointer: attribute, attribute } }]);

/**
 * An event PayMongo never made, about whatever `data` says, delivered exactly like a real one:
 * the webhook's secret signs it (`Paymongo-Signature`), retries and delivery modes apply. Anyone
 * who can read the webhook's secret (with the account's secret key) can send such a thing, which
 * is why a receiver must read the resource back rather than believe the event.
 */
export function forgeEvent(sim: Simulation, input: ForgedEvent): { eventId: string } {
  if (!isPlainObject(input) || typeof input.type !== "string" || input.type === "") throw invalid("type", "type must be an event type.");
  const data: unknown = input.data;
  if (!isPlainObject(data) || typeof data["id"] !== "string" || !isPlainObject(data["attributes"])) {
    throw invalid("data", "data must be a resource: {id, type?, attributes}.");
  }
  const account = accountOf(sim, data["id"], input.secretKey);
  const object = sim.state.find(data["id"]);
  const type = typeof data["type"] === "string" ? data["type"] : (object?.type ?? "");
  const event = sim.state.emit(input.type, { id: data["id"], type, attributes: { livemode: account.livemode, ...data["attributes"] } }, account);
  return { eventId: event.id };
}

function accountOf(sim: Simulation, id: string, secretKey: string | undefined): Account {
  if (secretKey !== undefined) {
    const mode = /^sk_(test|live)_/.exec(secretKey);
    if (!mode) throw invalid("secretKey", "secretKey must be a secret key (sk_test_… or sk_live_…).");
    return { owner: sim.keys.ownerOf(secretKey), livemode: mode[1] === "live" };
  }
  const object = sim.state.find(id);
  if (!object) throw invalid("data.id", `No object ${id} to take the account from: name the account with secretKey.`);
  return { owner: object.owner, livemode: object.livemode };
}
