export { fillDisk, mountSmallTmpfs } from "./small-disk.js";
