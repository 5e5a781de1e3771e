// Types of scripts/server-pid.mjs for the TypeScript tests.
/** Writes `pid` to DIR/server.pid; the function returned undoes it when that server has exited (scripts/server-pid.mjs). */
export function recordServerPid(dataDir: string, pid: number | undefined): () => void;
