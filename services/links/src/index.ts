export { createLinksService, type LinksServiceDeps } from "./links-service.js";
export { startLinksServer, type LinksServerOptions } from "./server.js";
export { readLinksConfig, type LinksConfig } from "./config.js";
