// The production server that `npm start` runs (scripts/start.mjs builds first): Next.js as a custom server behind
// the small node:http front in http-front.mjs, which answers only what Next cannot answer in the spec's terms
// (unknown methods on /v1, bodies on GET, requests Node's parser refuses). /v1 then goes straight to its compiled
// route's REST door (rest-direct.mjs and server/api/rest/plain-door.ts: node:http's request answered without web
// Request or Response objects or Next's generic request path, which cost about 4 times more server CPU per refused
// request and 2 to 3 times more per metered one); everything else is Next's own request handler, as under
// `next start`. `next dev` stays the development server.
// First, so that it keeps the platform's Date, Math.random and random functions before Next replaces them.
import { buildUsesCacheComponents, platformGlobalsAtLoad, restorePlatformGlobals } from "./platform-globals.mjs";
// Then, also before Next: its and React's AsyncLocalStorage instances share one of the platform's, so each promise
// of the process carries one store instead of five (scripts/shared-async-storage.mjs).
import "./install-shared-async-storage.mjs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { afterListeningSteps } from "./after-listening.mjs";
import { installGracefulShutdown } from "./graceful-shutdown.mjs";
import { answerClientError, answerConnect, createFront } from "./http-front.mjs";
import { ignoreClosedOutput, quietStartupFailureReports, routeStrayOutput, scriptLogger } from "./log.mjs";
import { answeredWithoutDatabase, directOr, loadRestRoute, routeLabel } from "./rest-direct.mjs";
import { countUnrouted, startBeforeListening, startupGate } from "./startup-gate.mjs";
import { pagesToWarm, preloadPageModules, warmPages } from "./warm-pages.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const port = Number(process.env.PORT ?? "3000");
const hostname = process.env.HOST ?? "0.0.0.0";

ignoreClosedOutput();
routeStrayOutput();
// What start-up leaves for the moment the port listens (the demo credentials' addresses with PORT=0, which the system
// picks then: server/startup/demo.ts); a step that fails then is logged, not thrown (scripts/after-listening.mjs).
const afterListening = afterListeningSteps();
globalThis.__serviceAfterListening = afterListening.register;
quietStartupFailureReports();
// A start-up that fails (an embedded database that cannot be opened, a wrong database password, a refused migration)
// stops the process, exit 1, as an invalid setting does below: it used to stay up with /healthz 200, /readyz 503
// "start-up failed" and every page 500, so no orchestrator restarted it. Start-up has said why in one line and closed
// the database when it calls this (server/startup/index.ts), before or after the port opened.
let server = null;
let exiting = null;
const exitAfterFailedStart = () =>
  (exiting ??= (async () => {
    if (server?.listening) {
      server.closeAllConnections();
      await Promise.race([new Promise((r) => server.close(r)), new Promise((r) => setTimeout(r, 2000))]);
    }
    process.exit(1);
  })());
const startFailed = new Promise((resolve) => (globalThis.__serviceStartupFailed = resolve));
void startFailed.then(exitAfterFailedStart);
const app = next({ dev: false, dir: root, hostname, port });
await app.prepare();
const handle = app.getRequestHandler();

// /v1 goes straight to the compiled REST route's door (scripts/rest-direct.mjs); everything else is Next's.
const distDir = path.join(root, process.env.SERVICE_NEXT_DIST_DIR || ".next");
const restRoute = loadRestRoute(distDir);
// Next's wrappers of the clock and randomness act only with `cacheComponents`, which this build does not enable, and
// cost every call a look into two AsyncLocalStorage instances (scripts/platform-globals.mjs).
restorePlatformGlobals(platformGlobalsAtLoad, { cacheComponents: buildUsesCacheComponents(distDir) });
if (!restRoute)
  scriptLogger().warn("the compiled /v1 route was not found in the build; /v1 goes through Next's request path");
// The probes answer at once while the service starts (scripts/startup-gate.mjs). requireHostHeader: false lets a
// /v1 request without Host get the spec's JSON error from the front, not Node's bare 400.
const handler = createFront(
  startupGate(directOr(restRoute, handle), {
    answersWithoutDatabase: (req) => answeredWithoutDatabase(restRoute, req),
    routeLabel: (req) => routeLabel(restRoute, req),
  }),
);
server = http.createServer({ requireHostHeader: false }, handler);
// An idle keep-alive connection stays open 65 s, past the 60 s idle timeout of common load balancers and past a
// client's pauses between calls. At Node's default of 5 s, a client (a load balancer, Playwright, an SDK's pool) that
// reuses its idle connection just as the server closes it gets ECONNRESET. Responses say `Keep-Alive: timeout=65`.
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
// /v1 requests the front answers itself (unknown methods, broken bodies) still count on /metrics, as "unmatched".
countUnrouted(server);
// Requests Node's parser refuses are answered there, and counted on /metrics as route="unparsed".
server.on("clientError", answerClientError);
// An Expect other than 100-continue: Node answered 417 with an empty body before any route saw the request. HTTP lets
// a server ignore an expectation it does not know (RFC 9110, 10.1.1), as common proxies do: the request goes to the
// 'request' listeners (the front, the metrics count, the shutdown's Connection: close) like any other.
server.on("checkExpectation", (req, res) => server.emit("request", req, res));
server.on("connect", answerConnect);

// SIGTERM/SIGINT/SIGHUP: readiness 503 at once, connections accepted for SERVICE_SHUTDOWN_DELAY_MS, in-flight requests
// finish, workers stop, the database closes, exit 0 (scripts/graceful-shutdown.mjs). Installed before the start-up
// runs, so a signal while starting also ends the process cleanly.
installGracefulShutdown({ server, app });

// The start-up steps that hold the event loop (Next loading the server's code, migrations, first-run seeding) run
// before the public port opens, so from the moment it is open the probes answer at once (scripts/startup-gate.mjs).
await startBeforeListening(handler);
// An invalid setting stops the server (README "Configuration"), before the port opens: a process that stayed up
// would answer /healthz 200, so no orchestrator would restart it, and every other request 503.
const invalidConfiguration = globalThis.__serviceProcessState?.configurationError;
if (invalidConfiguration) {
  scriptLogger().fatal(
    {
      problems: invalidConfiguration
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l && l !== "Invalid configuration:"),
    },
    "invalid configuration: the server does not start",
  );
  process.stderr.write(`${invalidConfiguration}\n`);
  process.exit(1);
}
// A start-up that failed before the port opened: start-up calls the hook above once the database is closed.
if (globalThis.__serviceProcessState?.startupError) {
  await Promise.race([startFailed, new Promise((r) => setTimeout(r, 10_000))]);
  await exitAfterFailedStart();
}
// The pages' code too: loading it holds the event loop longest after the start-up steps (scripts/warm-pages.mjs).
const pages = pagesToWarm(distDir);
preloadPageModules(distDir, pages);
// A port that cannot be opened (in use, not permitted) stops the process: it used to stay up listening nowhere, with
// only Next's "uncaughtException: Error: listen EADDRINUSE" on stderr. Background work and the database close first.
async function listenFailed(err) {
  const why =
    err.code === "EADDRINUSE"
      ? "the port is already in use"
      : err.code === "EACCES"
        ? "no permission to use the port"
        : err.message;
  scriptLogger().fatal({ code: err.code, host: hostname, port }, `cannot listen on ${hostname}:${port}: ${why}`);
  process.stderr.write(`cannot listen on ${hostname}:${port}: ${why} (set PORT or HOST)\n`);
  const lifecycle = globalThis.__serviceLifecycle;
  const closing = (async () => {
    await lifecycle?.beginShutdown();
    await lifecycle?.finishShutdown();
  })().catch(() => undefined);
  await Promise.race([closing, new Promise((r) => setTimeout(r, 10_000))]);
  process.exit(1);
}
if (!globalThis.__serviceProcessState?.shuttingDown) {
  server.once("error", listenFailed);
  server.listen(port, hostname, () => {
    server.off("error", listenFailed);
    // The port listened on: PORT=0 lets the system choose one.
    const listening = server.address()?.port ?? port;
    const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
    scriptLogger().info({ url: `http://${shown}:${listening}` }, "listening; starting the service");
    // Start-up may still be under way (waiting for the database): what it leaves from now on runs at once.
    afterListening.listening(listening);
    // Then /docs and every dashboard page once, so no first visitor waits for their code (scripts/warm-pages.mjs).
    const self = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname;
    void warmPages(`http://${self.includes(":") ? `[${self}]` : self}:${listening}`, pages);
  });
}
