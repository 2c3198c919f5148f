export { fillDisk, mountSmallTmpfs } from "./small-disk.js";
export { countingStore } from "./counting-store.js";
export { flakyStore } from "./flaky-store.js";
export { createTestStore } from "./test-store.js";
export { plannedIndex } from "./planned-index.js";
