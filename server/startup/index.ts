// Server start-up (called once from instrumentation.ts): open and migrate the database, seed a demo workspace on
// the very first run, and open the admin channel when the database is embedded.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import {
  channelAccepts,
  listenAdminChannel,
  holderKind,
  lockEmbeddedStore,
  releaseEmbeddedStore,
  writeServerPid,
} from "../admin/channel";
import { answerAdminCommand } from "../admin/commands";
import { assertBillingConfig } from "../billing/config";
import { closeDb, getDb, migrationsAppliedAtOpen, type Db } from "../db/client";
import { dataDir, databaseUrl, inMemory } from "../db/config";
import { adoptNpmConfigRegistry, fixEnvironment, isTestRun, nodeEnv, npmConfigRegistry, setting } from "../env";
import { geoDatabaseProblem, preloadGeoReader } from "../geo/database";
import { seedDemoOnFirstRun } from "./demo";
import { warmIpFeeds } from "../ip/reputation";
import { warmTyposquatIndexes } from "../vulnerabilities/typosquat";
import { startScheduledTasks } from "./tasks";
import { assertEncryptionKeyConfigured, prepareStoredSecrets } from "../secrets/startup";
import { startWebhookWorker } from "../webhooks/worker";
import { startBulkWorker } from "../bulk/worker";
import { logger } from "../operate/log";
import { startMetricsListener } from "../operate/metrics-listener";
import { registerLifecycle } from "./lifecycle";
import { registerMetricSources, reportDbPoolErrorsAsOutages } from "./sources";
import { processState } from "../operate/state";
import { assertValidConfiguration } from "./validate";
import { StartupStopped, untilDatabaseAnswers } from "./database-wait";
import { assertAuthSecretConfigured } from "../auth/secret";
import { registerBulkProcedures } from "../api/bulk-procedures";

export async function startServer(): Promise<void> {
  try {
    await startSteps();
    // A built server's environment no longer changes: each setting is read from it once from now on (not under
    // `next dev`, whose .env files may change, nor under Vitest, whose tests change variables between cases).
    if (nodeEnv() === "production") fixEnvironment();
    processState().started = true;
    processState().startupStep = undefined;
    logger().info("server started");
  } catch (err) {
    const state = processState();
    // A signal while start-up waited for the database: the shutdown says so, there is no failure to report.
    if (err instanceof StartupStopped) {
      state.startupFailure = err;
      logger().info(err.message);
      throw err;
    }
    state.startupError = (err as Error)?.message?.split("\n")[0] || String(err);
    state.startupFailure = err;
    // A setting the server cannot run with stops it (README "Configuration"): scripts/server.mjs exits 1 with this.
    if (state.startupStep === CHECKING_CONFIGURATION) state.configurationError = (err as Error)?.message || String(err);
    // Any other failure is said here, in one line; its stack is for LOG_LEVEL=debug (Next.js's own report of it,
    // scripts/log.mjs quietStartupFailureReports).
    else {
      logger().error({ step: state.startupStep }, `start-up failed while ${state.startupStep}: ${state.startupError}`);
      await stopAfterFailedStart();
    }
    throw err;
  }
}

/**
 * A start-up that failed for any other reason (an embedded database that cannot be opened, a wrong password, a
 * migration the database refuses) stops the production server too: scripts/server.mjs registers
 * `__serviceStartupFailed` and exits 1 when called. A process that stayed up answered /healthz 200, so no orchestrator
 * restarted it, /readyz 503 "start-up failed" and every page 500. The database, if it opened, is closed first. Under
 * `next dev` nothing is registered and the process stays up, as before.
 */
async function stopAfterFailedStart(): Promise<void> {
  const stop = (globalThis as { __serviceStartupFailed?: () => void }).__serviceStartupFailed;
  if (!stop) return;
  await closeDb().catch(() => undefined);
  stop();
}

/** Names the step under way for /readyz while starting, and lets waiting requests (the probes) in between steps. */
async function step(name: string): Promise<void> {
  processState().startupStep = name;
  await new Promise((r) => setImmediate(r));
}

const CHECKING_CONFIGURATION = "checking the configuration";

async function startSteps(): Promise<void> {
  await step(CHECKING_CONFIGURATION);
  // An invalid numeric setting (SERVICE_TARGET_TIMEOUT_MS=10s) stops the server here, naming the variable.
  assertValidConfiguration();
  // A wrong or half-configured billing mode stops the server here, naming what is missing.
  assertBillingConfig();
  await adoptNpmRegistrySetting();
  // Production without SERVICE_ENCRYPTION_KEY (or a malformed key) stops the server here, naming the variable.
  assertEncryptionKeyConfigured();
  // Production without NEXTAUTH_SECRET stops here too: every session route would answer 500.
  assertAuthSecretConfigured();
  // A second server on an embedded database folder that a running server holds stops here: both would open the same
  // PGlite files, each with its own buffers and checkpoints, and the second also wrote its pid over the first's.
  await assertEmbeddedStoreFree();
  // A SERVICE_METRICS_PORT that cannot be opened (in use, not permitted) stops the server here too, before any
  // background work starts: opened after the workers, its failure left a process that answered /healthz 200 and
  // every page 500 while its workers ran. Until the metric sources register below, a scrape has the process's own.
  await startMetricsListener();
  reportDbPoolErrorsAsOutages();
  // A PostgreSQL that cannot be reached yet is waited for, these steps tried again with a capped backoff.
  const db = await untilDatabaseAnswers(async () => {
    await step("opening the database and applying migrations");
    const opened = await getDb();
    if (!isTestRun())
      for (const migration of await migrationsAppliedAtOpen()) logger().info({ migration }, "applied migration");
    await step("preparing stored secrets");
    await prepareStoredSecrets(opened);
    await step("seeding the demo workspace on a first run");
    await seedDemoOnFirstRun(opened);
    return opened;
  });
  processState().storeOpened = true;
  if (setting("SERVICE_WARM_DATA")) {
    await step("loading shipped data");
    await warmData();
  } else {
    // Left to the first lookup, but not unchecked: geolocation files that are not there fail as the loading would.
    const problem = geoDatabaseProblem();
    if (problem) {
      processState().dataLoadError = problem;
      logger().error({ err: problem }, "the shipped geolocation data cannot be read; lookups of it will fail");
    } else {
      processState().dataDeferred = true;
      logger().info("shipped data loads at first use (SERVICE_WARM_DATA=0)");
    }
  }
  await step("starting background workers");
  startWebhookWorker();
  // The API layer hands bulk jobs their procedures before the worker starts claiming (server/bulk/procedures.ts).
  registerBulkProcedures();
  startBulkWorker();
  startScheduledTasks(db);
  processState().workersStarted = true;
  registerMetricSources(db);
  registerLifecycle();
  if (!databaseUrl()) {
    await step("opening the admin channel");
    writeServerPid();
    await listenAdminChannel((argv) => answerAdminCommand(db, argv));
  }
}

/**
 * Takes this server's embedded database folder (its lock file, server/admin/channel.ts lockEmbeddedStore), before the
 * database opens; throws when another running server holds it. Looking only for that server's admin channel, which
 * opens after migrations and the shipped data, let two servers started at the same moment both open the folder.
 */
async function assertEmbeddedStoreFree(): Promise<void> {
  if (databaseUrl() || inMemory()) return;
  const holder = lockEmbeddedStore();
  // A server of a release before the lock holds the folder without one: its channel tells.
  const why =
    holder !== null
      ? `process ${holder} holds it`
      : (await channelAccepts())
        ? "its admin channel accepts connections"
        : null;
  if (why === null) return;
  if (holder === null) releaseEmbeddedStore();
  if (holder !== null && holderKind(holder) === "command")
    throw new Error(
      `SERVICE_DATA_DIR=${dataDir()} is in use by an admin command (process ${holder}: npm run admin or ` +
        "npm run db:migrate, which open the embedded database themselves while no server runs). Start the server " +
        "when it has finished.",
    );
  throw new Error(
    `SERVICE_DATA_DIR=${dataDir()} is in use by another running server (${why}): an embedded ` +
      "database folder serves one server. Stop that server first, or give this one its own SERVICE_DATA_DIR " +
      "(or a DATABASE_URL, which any number of servers can share).",
  );
}

/**
 * The npm registry's address is never written into code: it is SERVICE_NPM_REGISTRY_URL, or npm's own setting.
 * `npm start` passes npm's setting as npm_config_registry; a server started another way (node scripts/start.mjs,
 * next start) asks npm for it once here.
 */
async function adoptNpmRegistrySetting(): Promise<void> {
  if (setting("SERVICE_NPM_REGISTRY_URL") || npmConfigRegistry()) return;
  try {
    const { stdout } = await promisify(execFile)("npm", ["config", "get", "registry"], { timeout: 10_000 });
    const url = stdout.trim();
    if (/^https?:\/\//.test(url)) adoptNpmConfigRegistry(url);
  } catch {
    // npm is not on PATH: npm lookups will answer 503 and say the registry is not configured
  }
}

/**
 * Loads shipped data (geolocation, ASN and list feeds, the popular package names' typosquat index) now, so the first
 * lookups are as fast as the rest.
 */
async function warmData(): Promise<void> {
  const started = Date.now();
  try {
    // Each part in turn, with the event loop free in between (the files are read asynchronously).
    await preloadGeoReader(4);
    await step("loading shipped data (IPv6 geolocation)");
    await preloadGeoReader(6);
    await step("loading shipped data (IP lists and ASN data)");
    await warmIpFeeds();
    await step("loading shipped data (popular package names)");
    warmTyposquatIndexes();
    processState().dataLoaded = true;
    logger().info({ duration_ms: Date.now() - started }, "shipped data loaded");
  } catch (err) {
    processState().dataLoadError = (err as Error)?.message?.split("\n")[0] || String(err);
    logger().error({ err }, "warming shipped data failed; lookups will load it on first use");
  }
}
