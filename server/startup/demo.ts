// The demo workspace of a first run (issue 22, item 13). Its API key is a secret: it is shown once, in a form meant
// for a person, and never written to the log stream. On a terminal it is a clearly marked notice on stderr; without
// one (a container, a process manager) it goes to a file under the data folder, readable by the owner only, whose
// path is logged. With SERVICE_ENV=production no demo workspace is created at all.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Db } from "../db/client";
import { dataDir, inMemory } from "../db/config";
import { isProductionDeployment, setting } from "../env";
import { logger } from "../operate/log";
import { createWorkspace } from "../workspaces/workspaces";

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
  const ws = await createWorkspace(db, { name: "Demo workspace", plans: ["suite_agency"], ownerEmail: owner });
  const publicUrl = setting("SERVICE_PUBLIC_URL");
  // PORT=0: the system picks the port when the server listens, after this seed; the addresses wait for it, or they
  // named http://localhost:0 (scripts/server.mjs calls back once listening).
  const afterListening = (globalThis as { __serviceAfterListening?: AfterListening }).__serviceAfterListening;
  if (!publicUrl && setting("PORT") === 0 && afterListening) {
    afterListening((port) => void showDemoCredentials(ws, owner, `http://localhost:${port}`, opts));
    return { workspaceId: ws.workspaceId, shownIn: "once listening" };
  }
  return showDemoCredentials(ws, owner, publicUrl ?? `http://localhost:${setting("PORT")}`, opts);
}

/** Registered by scripts/server.mjs: calls `fn` with the port once the public port listens. */
type AfterListening = (fn: (port: number) => void) => void;

function showDemoCredentials(
  ws: { workspaceId: string; apiKey: string },
  owner: string,
  address: string,
  opts: { terminal?: boolean },
): { workspaceId: string; shownIn: "terminal" | string } {
  const base = address.replace(/\/+$/, "");
  const text = [
    "First run: created a demo workspace (plan Suite Agency).",
    `  Workspace: ${ws.workspaceId}`,
    `  API key:   ${ws.apiKey}   (shown once; store it now)`,
    `  Dashboard: ${base}/dashboard   (sign in as ${owner})`,
    `  Try:       curl -H "Authorization: Bearer ${ws.apiKey}" ${base}/v1/ip/8.8.8.8/geo`,
  ].join("\n");
  if (opts.terminal ?? process.stderr.isTTY === true) {
    const rule = "=".repeat(78);
    process.stderr.write(`\n${rule}\nDEMO CREDENTIALS (not part of the log)\n${text}\n${rule}\n\n`);
    logger().info(
      { workspace_id: ws.workspaceId },
      "first run: created a demo workspace; its API key is shown on the terminal, not in the log",
    );
    return { workspaceId: ws.workspaceId, shownIn: "terminal" };
  }
  const dir = inMemory() ? path.resolve(".data") : dataDir();
  mkdirSync(dir, { recursive: true });
  // The folder may hold the file of another database's first run (memory:// and PostgreSQL runs share it with the
  // embedded database): its key was shown only there, so it is kept and this one goes beside it.
  const shared = path.join(dir, DEMO_CREDENTIALS_FILE);
  const file = existsSync(shared) ? path.join(dir, `demo-credentials-${ws.workspaceId}.txt`) : shared;
  writeFileSync(file, `${text}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // an older file keeps its mode on overwrite
  logger().info(
    { workspace_id: ws.workspaceId, file },
    "first run: created a demo workspace; its API key is in this file (readable by the owner only), not in the log",
  );
  return { workspaceId: ws.workspaceId, shownIn: file };
}
