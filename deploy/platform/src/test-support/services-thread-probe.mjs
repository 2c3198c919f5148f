// Run on the platform's services thread by services-thread.test.ts (through withServices). Plain
// JavaScript: the worker imports it as it is, while test-support/ is not compiled.

/** How many checkouts the payments store holds. @param {import("../local-services.js").LocalServices} services */
export function countCheckouts(services) {
  return services.stores.payments.collection({ name: "checkouts" }).count({});
}
