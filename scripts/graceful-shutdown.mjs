// Graceful shutdown of the production HTTP server (scripts/server.mjs), on SIGTERM, SIGINT or SIGHUP (the terminal
// it runs in closing; Node's default for SIGHUP is to end at once):
//   1. at once: /readyz answers 503 and background workers stop claiming (server/startup/lifecycle.ts);
//   2. for SERVICE_SHUTDOWN_DELAY_MS (default 5000) new connections are still accepted, so a load balancer that
//      polls readiness takes the instance out before it stops listening; every answer from the signal on says
//      `Connection: close`, so a keep-alive client opens a new connection for its next request (accepted until the
//      delay ends, refused after) instead of reusing one that step 3 closes under it (ECONNRESET); a connection idle
//      through the whole delay is still closed at its end;
//   3. then the listener closes (new connections are refused), idle keep-alive connections are closed, and
//      in-flight requests finish. A connection on which the client has sent nothing at all for a second (a
//      browser's or a pool's preconnect) is closed too: Node counts it as a request under way, never as idle, so
//      it would otherwise hold the exit until the grace period ends;
//   4. the database closes and the process exits 0.
// Everything must be done within SERVICE_SHUTDOWN_GRACE_MS (default 25000, counted from the signal, under
// Kubernetes' 30 s); past it the process exits 1 with the requests still open.

import { shutdownTiming } from "../server/env/shutdown-timings.mjs";
import { scriptLogger } from "./log.mjs";

/** The signals that drain the server (scripts/start.mjs passes the same on to it). */
export const SHUTDOWN_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"];

/** How long a connection may stay silent (no byte from the client) once the listener is closed. */
const SILENT_MS = 1000;

/** SERVICE_SHUTDOWN_DELAY_MS and SERVICE_SHUTDOWN_GRACE_MS, by the registry's defaults and rule. */
export const shutdownTimings = () => ({
  delayMs: shutdownTiming("SERVICE_SHUTDOWN_DELAY_MS"),
  graceMs: shutdownTiming("SERVICE_SHUTDOWN_GRACE_MS"),
});

function log(level, msg, extra = {}) {
  // The service's pino logger once the server has started (same process), else one of the same shape.
  scriptLogger()[level](extra, msg);
}

/** Installs the signal handlers. `server` is the node:http server, `app` Next's server (closed last). */
export function installGracefulShutdown({ server, app }) {
  const { delayMs, graceMs } = shutdownTimings();
  let stopping = false;
  let draining = false;
  const inFlight = new Set();
  // Every open connection and when it was accepted, for the silent ones (above).
  const sockets = new Map();
  server.on("connection", (socket) => {
    sockets.set(socket, Date.now());
    socket.once("close", () => sockets.delete(socket));
  });
  const closeSilent = () => {
    const now = Date.now();
    for (const [socket, accepted] of sockets) {
      if (socket.bytesRead === 0 && now - accepted >= SILENT_MS) socket.destroy();
    }
  };
  // Before the server's own handler (prependListener), which may answer at once (the front's 404s and 400s, the
  // start-up gate's probes): a header set after the answer went out throws ERR_HTTP_HEADERS_SENT and ends the process.
  server.prependListener("request", (_req, res) => {
    inFlight.add(res);
    // From the signal on, every answer tells a keep-alive client to reconnect (to another instance, once the load
    // balancer has seen readiness fail).
    if (stopping && !res.headersSent) res.setHeader("Connection", "close");
    res.on("close", () => {
      inFlight.delete(res);
      if (draining) server.closeIdleConnections();
    });
  });

  async function stop(signal) {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    const force = setTimeout(() => {
      log("error", "shutdown grace period over; exiting with requests still open", {
        open_requests: inFlight.size,
        open_connections: sockets.size,
        grace_ms: graceMs,
      });
      process.exit(1);
    }, graceMs);
    force.unref();

    const state = (globalThis.__serviceProcessState ??= {
      dataLoaded: false,
      workersStarted: false,
      shuttingDown: false,
    });
    state.shuttingDown = true;
    for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
    log("info", "shutdown signal received", {
      signal,
      delay_ms: delayMs,
      grace_ms: graceMs,
      open_requests: inFlight.size,
    });
    const lifecycle = globalThis.__serviceLifecycle;
    const background = lifecycle
      ? lifecycle.beginShutdown().catch((err) => log("error", "stopping background work failed", { err }))
      : Promise.resolve();

    await new Promise((r) => setTimeout(r, delayMs));
    draining = true;
    const closed = new Promise((r) => server.close(() => r()));
    const sweep = setInterval(() => {
      server.closeIdleConnections();
      closeSilent();
    }, 100);
    server.closeIdleConnections();
    closeSilent();
    log("info", "listener closed; waiting for in-flight requests", { open_requests: inFlight.size });
    await closed;
    clearInterval(sweep);
    await background;
    try {
      if (lifecycle) await lifecycle.finishShutdown();
      await app?.close?.();
    } catch (err) {
      log("error", "closing failed", { err });
    }
    log("info", "shutdown complete", { duration_ms: Date.now() - started });
    process.exit(0);
  }
  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, () => void stop(signal));
}
