// Webhook signing secrets at rest: never readable in the embedded database's files (heap, WAL, anything in the
// folder), sealed as AES-256-GCM envelopes bound to their row, readable again by the next process with the key
// generated once into the data folder (mode 0600).
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(path.join(tmpdir(), "svc-at-rest-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runWorker(
  mode: "create" | "read",
  name: string,
  postgres?: { url: string; schema: string },
): Promise<{ secret: string; stored?: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SERVICE_DATA_DIR: dir,
    SERVICE_ALLOW_PRIVATE_TARGETS: "1",
    NODE_ENV: "test",
  };
  // The embedded database in its own folder (or the given PostgreSQL schema), whatever store the rest of the suite
  // uses; the key is generated into the folder.
  for (const k of [
    "DATABASE_URL",
    "SERVICE_DB_SCHEMA",
    "SERVICE_ENCRYPTION_KEY",
    "SERVICE_ENCRYPTION_KEYS",
    "SERVICE_ENV",
  ])
    delete env[k];
  if (postgres) Object.assign(env, { DATABASE_URL: postgres.url, SERVICE_DB_SCHEMA: postgres.schema });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "at-rest-worker.ts"), mode, name], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split("\n").pop() ?? "{}"))
        : reject(new Error(`worker exited ${code}: ${err}`)),
    );
  });
}

const needlesOf = (secret: string) => {
  const raw = Buffer.from(secret.slice("whsec_".length), "base64");
  return [
    Buffer.from(secret),
    Buffer.from(secret.slice("whsec_".length)),
    raw,
    Buffer.from(raw.toString("hex")),
    Buffer.from(secret.slice(6, 22)),
  ];
};

function filesUnder(root: string): string[] {
  return readdirSync(root, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(root, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() ? [p] : [];
  });
}

describe("the embedded database's files", () => {
  it("never hold a webhook secret in any form, while the data itself is there to find", async () => {
    const marker = "marker-webhook-name-7f3a91";
    const { secret } = await runWorker("create", marker);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    const needles = needlesOf(secret);

    const files = filesUnder(dir);
    expect(files.some((f) => f.includes(`${path.sep}pg_wal${path.sep}`))).toBe(true);
    let markerSeen = false;
    for (const f of files) {
      const bytes = readFileSync(f);
      if (bytes.includes(Buffer.from(marker))) markerSeen = true;
      for (const n of needles) expect(bytes.includes(n), `${path.relative(dir, f)} holds the secret`).toBe(false);
    }
    // The scan reads what the database wrote: the webhook's name (not a secret) is found in its files.
    expect(markerSeen).toBe(true);

    const keyFile = path.join(dir, "encryption-keys");
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    // The next process reads the key generated once and opens the secret for signing.
    const again = await runWorker("read", marker);
    expect(again.secret).toBe(secret);
    expect(again.stored).toMatch(/^enc:v1:k[0-9a-f]{15}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  }, 240_000); // two processes each open the embedded database (a fresh one takes its time on a loaded machine)
});

// PostgreSQL too: the table's heap file and the WAL written meanwhile, read through the server (the test role is a
// superuser, as on the development and CI machines). Runs against DATABASE_URL or the local PostgreSQL.
describe("PostgreSQL's files", () => {
  it("never hold a webhook secret: neither the table's heap nor the WAL", async () => {
    const url =
      process.env.DATABASE_URL ?? process.env.SERVICE_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
    const schema = `rest_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const lsn = async () =>
        (await admin.query("SELECT pg_walfile_name(pg_current_wal_insert_lsn()) AS f")).rows[0].f as string;
      const marker = "marker-pg-webhook-3c9e";
      const firstSegment = await lsn();
      const { secret } = await runWorker("create", marker, { url, schema });
      // The WAL first, before the checkpoint below lets the server recycle segments: every segment written meanwhile
      // (other tests share this server, so the writes may span several), skipping one a concurrent checkpoint
      // already recycled. Then the table's heap, flushed to disk by the checkpoint.
      const lastSegment = await lsn();
      const read = async (file: string) =>
        (await admin.query("SELECT pg_read_binary_file($1) AS b", [file])).rows[0].b as Buffer;
      const segments = (
        await admin.query(
          "SELECT name FROM pg_ls_waldir() WHERE name ~ '^[0-9A-F]{24}$' AND name >= $1 AND name <= $2 ORDER BY name",
          [firstSegment, lastSegment],
        )
      ).rows.map((r) => `pg_wal/${r.name as string}`);
      const contents: [string, Buffer][] = [];
      for (const f of segments) {
        const bytes = await read(f).catch((err: Error) =>
          /No such file/.test(err.message) ? null : Promise.reject(err),
        );
        if (bytes) contents.push([f, bytes]);
      }
      await admin.query("CHECKPOINT");
      const heapPath = (await admin.query(`SELECT pg_relation_filepath('"${schema}"."Webhook"') AS p`)).rows[0]
        .p as string;
      contents.push([heapPath, await read(heapPath)]);
      let markerSeen = false;
      for (const [f, bytes] of contents) {
        if (bytes.includes(Buffer.from(marker))) markerSeen = true;
        for (const n of needlesOf(secret)) expect(bytes.includes(n), `${f} holds the secret`).toBe(false);
      }
      expect(markerSeen).toBe(true);
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  }, 240_000);
});
