// Two app processes sharing one PostgreSQL run one bulk job together: every item runs exactly once, the job
// completes, and usage is exactly the reservation (no unit charged twice). Runs against DATABASE_URL, or the local
// PostgreSQL the development and CI machines provide, in a schema of its own.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PrismaClient } from "../../server/db/generated/client";
import { createWorkspace } from "../../server/workspaces/workspaces";

const url = process.env.DATABASE_URL ?? process.env.SERVICE_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const schema = `bulk2p_${process.pid}_${randomBytes(3).toString("hex")}`;
let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});
afterAll(async () => {
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

function run<T>(...args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "two-process-worker.ts"), ...args], {
      env: { ...process.env, DATABASE_URL: url, SERVICE_DB_SCHEMA: schema, NODE_ENV: "test", SERVICE_BULK_WORKER: "0", SERVICE_SCHEDULER: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`worker exited ${code}: ${err.slice(-2000)}`));
      const line = out.trim().split("\n").filter((l) => l.startsWith("{")).pop() ?? "{}";
      resolve(JSON.parse(line) as T);
    });
  });
}

it("two processes sharing one PostgreSQL run a 40-item job once each, with exact usage", async () => {
  await run("drain", "0"); // migrates the schema; nothing to run yet
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, options: `-c search_path="${schema}"` } as never, { schema }) });
  try {
    const ws = await createWorkspace(prisma, { name: "two processes", plans: ["suite_business"] });
    const { id } = await run<{ id: string }>("create", ws.apiKey, "40");
    // Both start their passes at the same moment (each process first loads and connects).
    const startAt = String(Date.now() + 8_000);
    const [a, b] = await Promise.all([run<{ ran: number }>("drain", startAt), run<{ ran: number }>("drain", startAt)]);
    expect(a.ran + b.ran).toBe(40);

    const job = await prisma.bulkJob.findUniqueOrThrow({ where: { id } });
    expect(job.status).toBe("completed");
    expect(job.finishedAt).not.toBeNull();
    expect(job.unitsReserved).toBe(40);
    expect(job.unitsRefunded).toBe(0);
    const items = await prisma.bulkItem.findMany({ where: { jobId: id } });
    expect(items).toHaveLength(40);
    expect(items.every((i) => i.status === "succeeded")).toBe(true);
    const period = await prisma.usagePeriod.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } });
    expect(period.used).toBe(40);
    // One lookup-history entry per item: a second run of an item would have written a second one.
    expect(await prisma.lookupHistory.count({ where: { workspaceId: ws.workspaceId } })).toBe(40);
  } finally {
    await prisma.$disconnect();
  }
}, 180_000);
