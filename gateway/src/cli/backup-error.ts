/** Something the operator must fix about a backup (a path, a key, a running platform): one line, exit status 1. */
export class BackupError extends Error {}
