// Server start-up (called once from instrumentation.ts): open and migrate the database, seed a demo workspace on
// the very first run, and open the admin channel when the database is embedded.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { listenAdminChannel, writeServerPid } from "../admin/channel";
import { runAdminCommand } from "../admin/commands";
import { assertBillingConfig } from "../billing/config";
import { getDb, type Db } from "../db/client";
import { databaseUrl } from "../db/config";
import { toErrorBody } from "../errors";
import { geoReader } from "../geo/database";
import { warmIpFeeds } from "../ip/reputation";
import { startScheduledTasks } from "../queue/tasks";
import { assertEncryptionKeyConfigured, prepareStoredSecrets } from "../secrets/startup";
import { startWebhookWorker } from "../webhooks/worker";
import { startBulkWorker } from "../bulk/worker";
import { createWorkspace } from "../workspaces/workspaces";
import { logger } from "../operate/log";
import { startMetricsListener } from "../operate/metrics-listener";
import { registerLifecycle } from "../operate/lifecycle";
import { registerMetricSources } from "../operate/sources";
import { processState } from "../operate/state";
import { assertValidConfiguration } from "../config/validate";

export async function startServer(): Promise<void> {
  // An invalid numeric setting (SERVICE_TARGET_TIMEOUT_MS=10s) stops the server here, naming the variable.
  assertValidConfiguration();
  // A wrong or half-configured billing mode stops the server here, naming what is missing.
  assertBillingConfig();
  await adoptNpmRegistrySetting();
  // Production without SERVICE_ENCRYPTION_KEY (or a malformed key) stops the server here, naming the variable.
  assertEncryptionKeyConfigured();
  const db = await getDb();
  await prepareStoredSecrets(db);
  await seedDemoOnFirstRun(db);
  await warmData();
  startWebhookWorker();
  startBulkWorker();
  startScheduledTasks(db);
  processState().workersStarted = true;
  registerMetricSources(db);
  registerLifecycle();
  await startMetricsListener();
  if (!databaseUrl()) {
    writeServerPid();
    await listenAdminChannel(async (argv) => {
      if (argv[0] === "ping") return { status: 200, body: { result: "pong", text: "pong" } };
      try {
        return { status: 200, body: await runAdminCommand(db, argv) };
      } catch (err) {
        const { status, body } = toErrorBody(err);
        return { status: status >= 500 ? 500 : 400, body };
      }
    });
  }
}

/**
 * The npm registry's address is never written into code: it is SERVICE_NPM_REGISTRY_URL, or npm's own setting.
 * `npm start` passes npm's setting as npm_config_registry; a server started another way (node scripts/start.mjs,
 * next start) asks npm for it once here.
 */
async function adoptNpmRegistrySetting(): Promise<void> {
  if (process.env.SERVICE_NPM_REGISTRY_URL || process.env.npm_config_registry) return;
  try {
    const { stdout } = await promisify(execFile)("npm", ["config", "get", "registry"], { timeout: 10_000 });
    const url = stdout.trim();
    if (/^https?:\/\//.test(url)) process.env.npm_config_registry = url;
  } catch {
    // npm is not on PATH: npm lookups will answer 503 and say the registry is not configured
  }
}

/** Loads shipped data (geolocation, ASN and list feeds) now, so the first lookups are as fast as the rest. */
async function warmData(): Promise<void> {
  const started = Date.now();
  try {
    geoReader(4);
    geoReader(6);
    await warmIpFeeds();
    processState().dataLoaded = true;
    logger().info({ duration_ms: Date.now() - started }, "shipped data loaded");
  } catch (err) {
    logger().error({ err }, "warming shipped data failed; lookups will load it on first use");
  }
}

async function seedDemoOnFirstRun(db: Db): Promise<void> {
  if (process.env.SERVICE_SEED_DEMO === "0") return;
  if ((await db.workspace.count()) > 0) return;
  const owner = (process.env.SERVICE_DEMO_OWNER_EMAIL ?? "demo@example.com").toLowerCase();
  const ws = await createWorkspace(db, { name: "Demo workspace", plans: ["suite_agency"], ownerEmail: owner });
  const base = (process.env.SERVICE_PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? "3000"}`).replace(/\/+$/, "");
  console.log(
    [
      "",
      "First run: created a demo workspace (plan Suite Agency).",
      `  Workspace: ${ws.workspaceId}`,
      `  API key:   ${ws.apiKey}   (shown once; store it now)`,
      `  Dashboard: ${base}/dashboard   (sign in as ${owner})`,
      `  Try:       curl -H "Authorization: Bearer ${ws.apiKey}" ${base}/v1/ip/8.8.8.8/geo`,
      "",
    ].join("\n"),
  );
}
