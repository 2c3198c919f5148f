export { Timers } from "./timers.js";
export { Faults, isFaultStatus, playSocketFault, type FaultMatch, type FaultStatus } from "./faults.js";
export { isPlainObject, MAX_BODY_BYTES, parseJson, readBody, sendJson } from "./http-io.js";
export { startHttpServer, urlHost, type HttpServer } from "./http-server.js";
export { control, matchControl, type ControlRoute } from "./control-routes.js";
export { canonicalJson, IdempotencyLedger, type IdempotencyRules, type Outcome } from "./idempotency-ledger.js";
export { portFrom, runSimulator, type RunningSimulator, type SimulatorProgram } from "./run-simulator.js";
export { postDelivery, type DeliveryOutcome, type DeliveryRequest } from "./post-delivery.js";
