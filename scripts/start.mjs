// `npm start`: builds when the sources are newer than the last build, then serves the production server on
// PORT (default 3000). The server itself creates and migrates the database and seeds a demo workspace on first run.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuild } from "./build-state.mjs";
import { SHUTDOWN_SIGNALS } from "./graceful-shutdown.mjs";
import { ignoreClosedOutput, scriptLogger } from "./log.mjs";
import { recordServerPid } from "./server-pid.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
ignoreClosedOutput();
try {
  ensureBuild(root, { generateClient: true });
} catch (err) {
  scriptLogger().fatal({ err }, "the production build failed");
  process.exit(1);
}

// `next start` always runs with NODE_ENV=production, which to the sign-in code means "no development sign-in".
// A newcomer's `npm start` without an identity provider would then have no way into the dashboard, so unless
// the operator says this is production (NODE_ENV or SERVICE_ENV=production) or configures OpenID Connect, turn
// the labelled development sign-in on explicitly and say so.
const operatorSaysProduction = process.env.NODE_ENV === "production" || process.env.SERVICE_ENV === "production";
if (operatorSaysProduction) process.env.SERVICE_ENV = "production";
if (!operatorSaysProduction && !process.env.SERVICE_OIDC_ISSUER && process.env.SERVICE_DEV_SIGNIN === undefined) {
  process.env.SERVICE_DEV_SIGNIN = "1";
  // Anyone who can reach the dashboard could sign in as the demo owner: listen on loopback only, unless the
  // operator chose an address.
  process.env.HOST ??= "127.0.0.1";
  scriptLogger().warn(
    { host: process.env.HOST },
    "development sign-in is ON (anyone can sign in as any email): no OpenID Connect provider is configured; " +
      "listening on this host only. For production set SERVICE_OIDC_ISSUER, SERVICE_OIDC_CLIENT_ID, SERVICE_OIDC_CLIENT_SECRET, NEXTAUTH_SECRET, SERVICE_ENCRYPTION_KEY and SERVICE_ENV=production.",
  );
}

const port = process.env.PORT ?? "3000";
const host = process.env.HOST ?? "0.0.0.0";
// scripts/server.mjs: Next's request handler behind a small node:http front (unknown methods on /v1 and bodies
// on GET answered as the spec says; see scripts/http-front.mjs).
const child = spawn(process.execPath, [path.join(root, "scripts", "server.mjs")], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, PORT: port, HOST: host, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
});
// Record the server's pid so the admin CLI waits for the channel instead of opening the embedded database itself
// (server.mjs makes Next run the start-up at once). When it exits the file goes, or, for a server refused because
// another running one holds the folder, names that one again (scripts/server-pid.mjs).
const dataDir = path.resolve(process.env.SERVICE_DATA_DIR || path.join(root, ".data"));
const serverExited =
  !process.env.DATABASE_URL && process.env.SERVICE_DATA_DIR !== "memory://"
    ? recordServerPid(dataDir, child.pid)
    : () => {};
// The server drains on each (SIGHUP: the terminal closed, which signals the server too; it stops once).
for (const sig of SHUTDOWN_SIGNALS) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => {
  serverExited();
  process.exit(code ?? (signal ? 1 : 0));
});
