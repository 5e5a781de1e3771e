// Two app processes sharing one PostgreSQL never over-admit. Runs against DATABASE_URL, or the local
// PostgreSQL the development and CI machines provide, in a schema of its own.
import path from "node:path";
import { expect, it } from "vitest";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { adjustUsage } from "../../server/quota/adjust";
import { useProcessSchema } from "../fakes/process-schema";

const shared = useProcessSchema("mp");

async function runWorker(key: string, count: number): Promise<number[]> {
  const out = await shared.runProcess(path.join(__dirname, "multiprocess-worker.ts"), [key, String(count)]);
  return JSON.parse(out.trim().split("\n").pop() ?? "[]");
}

it("two app processes sharing one PostgreSQL admit exactly the remaining units", async () => {
  // Provision through a process-local client in the same schema (test/fakes/process-schema.ts migrated it).
  const prisma = await shared.client();
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
