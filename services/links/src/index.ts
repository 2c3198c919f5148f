export { startLinksServer } from "./server.js";
export { readLinksConfig, type LinksConfig } from "./config.js";
