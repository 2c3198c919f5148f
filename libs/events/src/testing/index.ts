/**
 * Test tools for code that uses the bus (`@bayad/events/testing`), shared by this library's
 * tests and the platform's end-to-end tests. Not used by any service at run time.
 */
export { startTcpProxy, type TcpProxy } from "./tcp-proxy.js";
export { deleteJetStreamNamespace } from "./jetstream-namespace.js";
