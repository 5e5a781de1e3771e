// The demo workspace of a first run (issue 22, item 13). Its API key is a secret: it is shown once, in a form meant
// for a person, and never written to the log stream. On a terminal it is a clearly marked notice on stderr; without
// one (a container, a process manager) it goes to a file under the data folder, readable by the owner only, whose
// path is logged. With SERVICE_ENV=production no demo workspace is created at all.
import { chmodSync, existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Db } from "../db/client";
import { dataDir, inMemory } from "../db/config";
import { isProductionDeployment, setting } from "../env";
import { logger } from "../operate/log";
import { createWorkspace } from "../workspaces/workspaces";
import { makeFolders } from "../db/make-folders.mjs";

export const DEMO_CREDENTIALS_FILE = "demo-credentials.txt";

/** Creates the demo workspace when the database has none; returns where its key was shown, or null. */
export async function seedDemoOnFirstRun(
  db: Db,
  opts: { terminal?: boolean } = {},
): Promise<{ workspaceId: string; shownIn: "terminal" | string } | null> {
  if (!setting("SERVICE_SEED_DEMO")) return null;
  if (isProductionDeployment()) return null;
  if ((await db.workspace.count()) > 0) return null;
  const owner = setting("SERVICE_DEMO_OWNER_EMAIL").toLowerCase();
  const publicUrl = setting("SERVICE_PUBLIC_URL");
  // PORT=0: the system picks the port when the server listens, after this seed; the addresses wait for it, or they
  // named http://localhost:0 (scripts/server.mjs calls back once listening).
  const afterListening = (globalThis as { __serviceAfterListening?: AfterListening }).__serviceAfterListening;
  const portLater = !publicUrl && setting("PORT") === 0 && afterListening ? afterListening : null;
  const address = (port: number | string) => publicUrl ?? `http://localhost:${port}`;
  const terminal = opts.terminal ?? process.stderr.isTTY === true;
  // Without a terminal the key goes to its file before the workspace is committed: written after, a file that could
  // not be written (a read-only data folder) left a workspace whose key no one had seen, and the next start, finding
  // a workspace, seeded nothing. Now nothing is created, and start-up fails saying what to do.
  let file = null as string | null;
  const ws = await createWorkspace(db, {
    name: "Demo workspace",
    plans: ["suite_agency"],
    ownerEmail: owner,
    beforeCommit: terminal
      ? undefined
      : (created) => {
          file = writeCredentialsFile(
            created,
            credentialsText(created, owner, portLater ? null : address(setting("PORT"))),
          );
        },
  }).catch((err: unknown) => {
    // Written, then the commit failed (the database dropped): the file names a key that does not exist.
    if (file) rmSync(file, { force: true });
    throw err;
  });
  if (terminal) {
    if (portLater) {
      portLater((port) => showOnTerminal(ws, credentialsText(ws, owner, address(port))));
      return { workspaceId: ws.workspaceId, shownIn: "once listening" };
    }
    showOnTerminal(ws, credentialsText(ws, owner, address(setting("PORT"))));
    return { workspaceId: ws.workspaceId, shownIn: "terminal" };
  }
  const written = file!;
  logger().info(
    { workspace_id: ws.workspaceId, file: written },
    "first run: created a demo workspace; its API key is in this file (readable by the owner only), not in the log",
  );
  // The addresses, once the port is known (the key is in the file already; a failure here is logged, not thrown).
  if (portLater)
    portLater((port) => writeFileSync(written, credentialsText(ws, owner, address(port)), { mode: 0o600 }));
  return { workspaceId: ws.workspaceId, shownIn: written };
}

/** Registered by scripts/server.mjs: calls `fn` with the port once the public port listens. */
type AfterListening = (fn: (port: number) => void) => void;

/** What a person is shown; `address` null: the port is not known yet (PORT=0 before the server listens). */
function credentialsText(ws: { workspaceId: string; apiKey: string }, owner: string, address: string | null): string {
  const base = (address ?? "http://localhost:<port>").replace(/\/+$/, "");
  return (
    [
      "First run: created a demo workspace (plan Suite Agency).",
      `  Workspace: ${ws.workspaceId}`,
      `  API key:   ${ws.apiKey}   (shown once; store it now)`,
      `  Dashboard: ${base}/dashboard   (sign in as ${owner})`,
      `  Try:       curl -H "Authorization: Bearer ${ws.apiKey}" ${base}/v1/ip/8.8.8.8/geo`,
      ...(address === null
        ? ["  (<port>: the port the server listens on; this file is rewritten with it once it does)"]
        : []),
    ].join("\n") + "\n"
  );
}

function showOnTerminal(ws: { workspaceId: string }, text: string): void {
  const rule = "=".repeat(78);
  process.stderr.write(`\n${rule}\nDEMO CREDENTIALS (not part of the log)\n${text}${rule}\n\n`);
  logger().info(
    { workspace_id: ws.workspaceId },
    "first run: created a demo workspace; its API key is shown on the terminal, not in the log",
  );
}

/** Writes the credentials file (0600) under the data folder and returns its path; throws saying what to do. */
function writeCredentialsFile(ws: { workspaceId: string }, text: string): string {
  const dir = inMemory() ? path.resolve(".data") : dataDir();
  // The folder may hold the file of another database's first run (memory:// and PostgreSQL runs share it with the
  // embedded database): its key was shown only there, so it is kept and this one goes beside it.
  const shared = path.join(dir, DEMO_CREDENTIALS_FILE);
  const file = existsSync(shared) ? path.join(dir, `demo-credentials-${ws.workspaceId}.txt`) : shared;
  try {
    makeFolders(dir);
    writeFileSync(file, text, { mode: 0o600 });
    chmodSync(file, 0o600); // an older file keeps its mode on overwrite
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new Error(
      `the demo workspace's API key cannot be written to ${file} (${e.code ?? e.message}), so no demo workspace was ` +
        `created: make ${dir} writable (or set SERVICE_DATA_DIR to a writable folder), or set SERVICE_SEED_DEMO=0 ` +
        "to start without one.",
      { cause: err },
    );
  }
  return file;
}
