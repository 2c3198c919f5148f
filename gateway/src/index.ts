export { startGateway, type GatewayOptions, type RunningGateway } from "./gateway.js";
export { readGatewayConfig, type GatewayConfig } from "./config.js";
export { createResponseValidator, type ResponseCheck } from "./openapi/response-validator.js";
export type { ServiceAddress, ServiceAddresses } from "./rpc/service-clients.js";
export { projectsCollection } from "./admin/projects.js";
export { apiKeysCollection } from "./auth/api-keys.js";
export { signingKeysCollection } from "./auth/service-tokens.js";
export { loadOpenApiDocument, listOperations, type OperationSpec } from "./openapi/document.js";
