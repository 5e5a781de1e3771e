// What this process knows about itself, for the readiness probe and shutdown. Held on globalThis because Next
// bundles instrumentation.ts and each route handler separately: module-level variables would not be shared.
export interface ProcessState {
  /** Set once the shipped data (geolocation, ASN and list feeds) has been loaded at start. */
  dataLoaded: boolean;
  /** Set when start-up left the shipped data to load at first use (SERVICE_WARM_DATA=0). */
  dataDeferred?: boolean;
  /** Why loading the shipped data at start failed (a geolocation folder that is missing, a list that cannot be read). */
  dataLoadError?: string;
  /** Set once the background workers (webhook delivery, retention purge) have been started. */
  workersStarted: boolean;
  /** Set from the moment shutdown begins: readiness answers 503 from then on. */
  shuttingDown: boolean;
  /** Set once start-up has finished; until then scripts/startup-gate.mjs answers the probes itself. */
  started?: boolean;
  /**
   * Set once the start-up steps that hold the event loop (loading the server's code, opening and migrating the
   * database, first-run seeding) are behind it: scripts/server.mjs opens the public port then (issue 22, item 11).
   */
  storeOpened?: boolean;
  /**
   * Why the database cannot be reached while start-up waits for it (server/startup/database-wait.ts): the port opens
   * and scripts/startup-gate.mjs answers every request but the probes 503 meanwhile.
   */
  waitingForDatabase?: string;
  /** The start-up step under way, named by /readyz while starting. */
  startupStep?: string;
  /** Why start-up failed, named by /readyz. */
  startupError?: string;
  /**
   * The error start-up failed with, as thrown: Next.js reports it again with its stack (console.error), and
   * scripts/log.mjs quietStartupFailureReports recognises those reports by it and keeps them at debug level.
   */
  startupFailure?: unknown;
  /**
   * Set when start-up failed while checking the configuration (an invalid setting, a missing required secret): every
   * problem, one a line. scripts/server.mjs then exits 1 with it instead of opening the port.
   */
  configurationError?: string;
}

const g = globalThis as unknown as { __serviceProcessState?: ProcessState };

export function processState(): ProcessState {
  g.__serviceProcessState ??= { dataLoaded: false, workersStarted: false, shuttingDown: false };
  return g.__serviceProcessState;
}

/** Values read at scrape time from modules that must not depend on prom-client (db client, feeds). */
export interface MetricSources {
  /** Each feed's age (null: it holds no data yet, so no age sample) and records. */
  feeds?: () => Promise<{ name: string; ageSeconds: number | null; count: number }[]>;
  dbPool?: () => { inUse: number; waiting: number; total: number } | null;
}

const s = globalThis as unknown as { __serviceMetricSources?: MetricSources };

export function metricSources(): MetricSources {
  s.__serviceMetricSources ??= {};
  return s.__serviceMetricSources;
}
