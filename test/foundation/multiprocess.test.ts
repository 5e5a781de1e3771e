// Two app processes sharing one PostgreSQL never over-admit. Runs against DATABASE_URL, or the local
// PostgreSQL the development and CI machines provide, in a schema of its own.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { adjustUsage } from "../../server/quota/reserve";
import { PrismaClient } from "../../server/db/generated/client";

const url = process.env.DATABASE_URL ?? process.env.SERVICE_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const schema = `mp_${process.pid}_${randomBytes(3).toString("hex")}`;
let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});
afterAll(async () => {
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

function runWorker(key: string, count: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "multiprocess-worker.ts"), key, String(count)], {
      env: { ...process.env, DATABASE_URL: url, SERVICE_DB_SCHEMA: schema, NODE_ENV: "test" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`worker exited ${code}: ${err}`));
      const line = out.trim().split("\n").pop() ?? "[]";
      resolve(JSON.parse(line));
    });
  });
}

it("two app processes sharing one PostgreSQL admit exactly the remaining units", async () => {
  // Provision through a process-local client in the same schema (the workers migrate it first).
  await runWorker("svc_live_" + "Z".repeat(43), 1); // migrates the schema; the bogus key is refused
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, options: `-c search_path="${schema}"` } as never, { schema }) });
  const ws = await createWorkspace(prisma, { name: "mp", plans: ["free"] });
  await adjustUsage(prisma, { workspaceId: ws.workspaceId, units: 970, reason: "test" });

  const [a, b] = await Promise.all([runWorker(ws.apiKey, 40), runWorker(ws.apiKey, 40)]);
  const all = [...a, ...b];
  expect(all.filter((s) => s === 200)).toHaveLength(30);
  expect(all.filter((s) => s === 402)).toHaveLength(50);
  const period = await prisma.usagePeriod.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } });
  expect(period.used).toBe(1000);
  expect(await prisma.usageLedger.count({ where: { workspaceId: ws.workspaceId, endpoint: "ip.geo" } })).toBe(30);
  await prisma.$disconnect();
}, 120_000);
