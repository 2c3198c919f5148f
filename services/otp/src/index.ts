export { createOtpService, type OtpServiceDeps } from "./otp-service.js";
export { startOtpServer, type OtpServerOptions } from "./server.js";
export { readOtpConfig, type OtpConfig } from "./config.js";
