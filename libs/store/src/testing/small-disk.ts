import { execFileSync } from "node:child_process";
import { closeSync, openSync, writeSync } from "node:fs";

/**
 * Test support for disk faults: a real size-limited file system and a way to fill it, so a full
 * disk is the kernel's ENOSPC rather than a simulated error. Shared by the store's own tests and
 * the platform's end-to-end ones.
 */

/** Mounts a tmpfs of `size` (e.g. "2m") at `dir`; answers why it could not, or undefined when it did. */
export function mountSmallTmpfs(dir: string, size: string): string | undefined {
  if (process.getuid?.() !== 0) return "mounting a size-limited tmpfs needs root";
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "pipe" });
    return undefined;
  } catch (error) {
    return `mount -t tmpfs was refused (${String((error as { stderr?: Buffer }).stderr ?? error).trim()})`;
  }
}

/** Writes `file` until its file system is full (ENOSPC). */
export function fillDisk(file: string): void {
  const fd = openSync(file, "w");
  const chunk = Buffer.alloc(16 * 1024, 7);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
}
