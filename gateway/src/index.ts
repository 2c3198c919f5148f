export { startGateway, type GatewayOptions, type RunningGateway } from "./gateway.js";
export { readGatewayConfig, type GatewayConfig } from "./config.js";
export { createResponseValidator, type ResponseCheck } from "./openapi/response-validator.js";
export { loadOpenApiDocument, listOperations, type OperationSpec } from "./openapi/document.js";
export type { ServiceAddresses } from "./rpc/service-clients.js";
export { allScopes, apiKeyScopes, type Caller, type Scope } from "./auth/caller.js";
