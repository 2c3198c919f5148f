import { AttributeReader } from "../attribute-reader.js";
import type { ApiRequest, Simulation } from "../simulation.js";

const TYPE = "customer";

export function createCustomer(sim: Simulation, req: ApiRequest) {
  const r = new AttributeReader(req.attributes);
  const firstName = r.string("first_name", { required: true, maxLength: 255 });
  const lastName = r.string("last_name", { required: true, maxLength: 255 });
  const email = r.string("email", { required: true, maxLength: 255 });
  if (email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    r.fail("email", "parameter_format_invalid", "email must be a valid email address.");
  }
  const phone = r.string("phone", { maxLength: 32 });
  const defaultDevice = r.oneOf("default_device", ["email", "phone"], { required: true });
  if (defaultDevice === "phone" && phone === undefined) {
    r.fail("phone", "parameter_required", "phone is required when default_device is phone.");
  }
  r.done();
  const customer = sim.state.create(req.account, "cus", TYPE, {
    default_device: defaultDevice,
    email,
    first_name: firstName,
    last_name: lastName,
    phone: phone ?? null,
  });
  return { data: sim.state.render(customer) };
}

export function getCustomer(sim: Simulation, req: ApiRequest) {
  return { data: sim.state.render(sim.state.owned(req.account, req.params[0], TYPE)) };
}
