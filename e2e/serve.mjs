// The server the end-to-end tests run against: the production build (scripts/start.mjs builds when needed) on
// 127.0.0.1 with a fresh database: a new PGlite folder, or a new schema when DATABASE_URL points at PostgreSQL.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const port = process.env.E2E_PORT ?? "3217";
const env = {
  ...process.env,
  PORT: port,
  HOST: "127.0.0.1",
  NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
  // A production build with no identity provider: the tests sign in through the development sign-in, enabled
  // explicitly (it is never a silent fallback in production).
  SERVICE_DEV_SIGNIN: "1",
  SERVICE_OIDC_ISSUER: "",
  SERVICE_OIDC_CLIENT_ID: "",
  SERVICE_OIDC_CLIENT_SECRET: "",
  NEXT_TELEMETRY_DISABLED: "1",
  // Website scans in the e2e journeys visit sites the specs start on 127.0.0.1 (the SSRF table is unit-tested).
  SERVICE_ALLOW_PRIVATE_TARGETS: "1",
  // Every answer the journeys see is checked against its output schema (server/api/output-validation.ts).
  SERVICE_OUTPUT_VALIDATION: "strict",
};

// No NEXTAUTH_URL: the app must work at whatever address it is reached by (unset, not empty: next-auth's client
// module parses an empty value as a URL).
delete env.NEXTAUTH_URL;
delete env.SERVICE_PUBLIC_URL;

let cleanup = () => {};
if (process.env.DATABASE_URL) {
  const schema = `e2e_${randomBytes(4).toString("hex")}`;
  env.SERVICE_DB_SCHEMA = schema;
  cleanup = async () => {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  };
} else {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-e2e-"));
  env.SERVICE_DATA_DIR = dir;
  // The new database starts from the migrated copy the unit tests keep (server/db/template.ts; made here if missing)
  // instead of initdb and every migration: the journeys wait for the server, and its start is theirs.
  env.SERVICE_DB_TEMPLATE_DIR ??= path.join(root, "node_modules", ".cache", "service-db-template");
  cleanup = () => rmSync(dir, { recursive: true, force: true });
}

// The tests grant plans the honest way, with the operator's commands against this server's database: they find the
// database settings in this file (removed when the server stops), and on the embedded database the server's admin
// channel, the socket the CLI hands its commands to (server/admin/channel.ts, for the server's data folder).
const serverInfoFile = path.join(tmpdir(), `svc-e2e-server-${port}.json`);
const dbEnv = Object.fromEntries(
  ["SERVICE_DATA_DIR", "DATABASE_URL", "SERVICE_DB_SCHEMA"].filter((k) => env[k]).map((k) => [k, env[k]]),
);
let adminSocket;
if (!env.DATABASE_URL) {
  const { adminSocketPath } = await tsImport("../server/admin/channel.ts", import.meta.url);
  const own = process.env.SERVICE_DATA_DIR;
  process.env.SERVICE_DATA_DIR = env.SERVICE_DATA_DIR;
  adminSocket = adminSocketPath();
  if (own === undefined) delete process.env.SERVICE_DATA_DIR;
  else process.env.SERVICE_DATA_DIR = own;
}
writeFileSync(serverInfoFile, JSON.stringify({ port, env: dbEnv, adminSocket }), { mode: 0o600 });
const removeServerInfo = () => rmSync(serverInfoFile, { force: true });

// The machine running the tests has no internet: package registries, download counts, OSV and the KEV feed are
// played by the fake sources the unit tests use (test/fakes/packages), in this process, for the server's lifetime.
const { startFakePackageSources } = await tsImport("../test/fakes/packages/server.ts", import.meta.url);
const packageSources = await startFakePackageSources();
Object.assign(env, packageSources.env);
const stopPackageSources = () => packageSources.close();

// DNS is played by the fake DNS server too. Its records are read, on every query, from the JSON files the specs
// write in one folder, a file per Playwright worker ({ "name": [{ "type", "data" }] }, see e2e/dns-records.ts), so
// two workers never overwrite each other's records; names in none of them answer NXDOMAIN, as the offline machine's
// own resolver does.
const { startFakeDnsServer } = await tsImport("../test/fakes/dns-server.ts", import.meta.url);
const { readdirSync, readFileSync } = await import("node:fs");
const dnsRecordsDir = path.join(tmpdir(), `svc-e2e-dns-${port}`);
rmSync(dnsRecordsDir, { recursive: true, force: true });
const fakeDns = await startFakeDnsServer({
  handler: (name) => {
    let files = [];
    try {
      files = readdirSync(dnsRecordsDir).filter((f) => f.endsWith(".json"));
    } catch {
      return undefined;
    }
    for (const f of files) {
      try {
        const records = JSON.parse(readFileSync(path.join(dnsRecordsDir, f), "utf8"))[name];
        if (records) return records;
      } catch {
        // A file replaced between the listing and the read: the next query reads its successor.
      }
    }
    return undefined;
  },
});
env.SERVICE_DNS_SERVERS = fakeDns.address;
// The fake DNS serves `.test` zones: the special-use names decided from the request alone are the tests' list.
const { TEST_SPECIAL_USE_NAMES } = await tsImport("../test/fakes/special-use-names.ts", import.meta.url);
env.SERVICE_SPECIAL_USE_NAMES ??= TEST_SPECIAL_USE_NAMES;

const child = spawn(process.execPath, [path.join(root, "scripts", "start.mjs")], { cwd: root, env, stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", async (code) => {
  removeServerInfo();
  try {
    await cleanup();
  } catch (err) {
    console.error("e2e cleanup failed:", err);
  }
  await stopPackageSources().catch((err) => console.error("stopping the fake package sources failed:", err));
  await fakeDns.close().catch(() => undefined);
  process.exit(code ?? 0);
});
